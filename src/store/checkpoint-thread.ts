import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

/** What the checkpoint thread is started with. */
export interface CheckpointThreadData {
  path: string;
  intervalMs: number;
}

/** What it tells the daemon after a checkpoint that copied frames back. */
export interface CheckpointReport {
  /** Frames in the write-ahead log, and how many of them are now in the database file. */
  log: number;
  checkpointed: number;
}

/**
 * The thread that copies the write-ahead log back into the database file (see WalCheckpointer), on a connection of
 * its own. PASSIVE: it never waits for the daemon's writers or readers and never makes them wait; what it cannot
 * copy yet, it copies next time.
 */
const { path, intervalMs } = workerData as CheckpointThreadData;
const db = new Database(path, { fileMustExist: true });
const checkpoint = db.prepare<[], { busy: number; log: number; checkpointed: number }>('PRAGMA wal_checkpoint(PASSIVE)');
const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
/** What `data_version` said before the last checkpoint; it changes when the daemon commits. */
let seen = -1;
let complete = false;
const timer = setInterval(() => {
  const version = dataVersion.get()!;
  // Nothing was committed since a checkpoint that copied everything: nothing to do, nothing to tell.
  if (version === seen && complete) return;
  seen = version;
  const { log, checkpointed } = checkpoint.get()!;
  complete = checkpointed === log;
  if (checkpointed > 0) parentPort!.postMessage({ log, checkpointed } satisfies CheckpointReport);
}, intervalMs);
parentPort!.on('message', (message: 'stop') => {
  if (message !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort!.close();
});
