import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import { packageRoot } from '../package-root.js';
import type { CheckpointReport, CheckpointThreadData } from './checkpoint-thread.js';
import type { Db } from './database.js';

/** SQLite's own default: a commit that leaves this many frames in the log checkpoints it. */
const SQLITE_AUTOCHECKPOINT = 1000;

export interface WalCheckpointerOptions {
  logger: Logger;
  /** How often the thread checkpoints. */
  intervalMs?: number;
  /** Told of each checkpoint that copied frames back. */
  onCheckpoint?: (report: CheckpointReport) => void;
}

/**
 * Moves checkpoints (copying the write-ahead log back into the database file, with its fsync) off the daemon's
 * event loop, to a thread with a connection of its own (`checkpoint-thread.ts`). Left to SQLite, whichever commit
 * fills the log to 1000 frames checkpoints it, on the event loop, while every request waits: under a retention
 * purge, which dirties page after page, that was most of what API requests felt of it (bench/retention.ts).
 * While the thread runs, the daemon's connection does not checkpoint; if the thread stops for any reason, it does
 * again, as before, so the log never grows without bound.
 */
export class WalCheckpointer {
  private worker: Worker | null = null;
  private stopping = false;

  constructor(
    private readonly db: Db,
    private readonly options: WalCheckpointerOptions,
  ) {}

  start(): void {
    if (this.worker !== null || this.stopping || this.db.memory) return;
    const workerData: CheckpointThreadData = { path: this.db.name, intervalMs: this.options.intervalMs ?? 100 };
    const worker = new Worker(join(packageRoot(), 'dist', 'src', 'store', 'checkpoint-thread.js'), { workerData });
    worker.unref();
    worker.on('message', (report: CheckpointReport) => this.options.onCheckpoint?.(report));
    worker.on('error', (err) => this.options.logger.error({ err }, 'the checkpoint thread failed; the daemon checkpoints on its own again'));
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = null;
      // A store closed first has nothing left to checkpoint.
      if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT}`);
    });
    this.worker = worker;
    this.db.pragma('wal_autocheckpoint = 0');
  }

  /** Stops the thread (its connection closed) and gives checkpoints back to the daemon's connection. */
  async close(): Promise<void> {
    this.stopping = true;
    const worker = this.worker;
    if (worker === null) return;
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    // Unreferenced, the thread would not keep the process alive while it is awaited: the daemon would end here, with
    // whatever its shutdown had left to do undone (its exit status among it).
    worker.ref();
    worker.postMessage('stop');
    await exited;
  }
}
