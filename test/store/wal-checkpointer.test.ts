import { renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CheckpointReport } from '../../src/store/checkpoint-thread.js';
import { openDatabase, type Db } from '../../src/store/database.js';
import { WalCheckpointer } from '../../src/store/wal-checkpointer.js';
import { tempDir } from '../fixtures/temp-dir.js';

const PAGE = 4096;
/** Frames a round of writes adds to the log: half of SQLite's own checkpoint threshold. */
const ROUND_PAGES = 500;

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`never: ${what}`);
}

describe('WalCheckpointer', () => {
  let dir: ReturnType<typeof tempDir>;
  let db: Db;
  let checkpointer: WalCheckpointer | null = null;
  const logged: string[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => logged.push(line) });

  beforeEach(() => {
    dir = tempDir('errand-checkpoints-');
    db = openDatabase(join(dir.path, 'errand.db'));
    db.exec('CREATE TABLE pages (body BLOB NOT NULL)');
    logged.length = 0;
  });
  afterEach(async () => {
    await checkpointer?.close();
    checkpointer = null;
    db.close();
    dir.remove();
  });

  const writeRound = () => db.transaction(() => {
    const insert = db.prepare('INSERT INTO pages (body) VALUES (?)');
    for (let i = 0; i < ROUND_PAGES; i++) insert.run(Buffer.alloc(PAGE - 100, i % 251));
  })();
  const walBytes = () => statSync(`${db.name}-wal`).size;
  const autocheckpoint = () => db.pragma('wal_autocheckpoint', { simple: true });

  it('checkpoints the log from its own thread while the connection, which no longer checkpoints, goes on writing into a log that stays small', async () => {
    const reports: CheckpointReport[] = [];
    checkpointer = new WalCheckpointer(db, { logger, intervalMs: 20, onCheckpoint: (r) => reports.push(r) });
    checkpointer.start();
    expect(autocheckpoint()).toBe(0);
    for (let round = 0; round < 20; round++) {
      writeRound();
      const seen = reports.length;
      // Every frame of the round is in the database file: the next write starts the log over.
      await until(() => reports.length > seen && reports.at(-1)!.checkpointed === reports.at(-1)!.log, `round ${round} checkpointed`);
    }
    // Twenty rounds left in the log would be 20 * 500 pages; reused from its start, it holds about one round.
    expect(walBytes()).toBeLessThan(3 * ROUND_PAGES * PAGE);
  });

  it('without it the same writes on the same connection grow the log: the connection checkpoints on its own only when told to', () => {
    db.pragma('wal_autocheckpoint = 0');
    for (let round = 0; round < 20; round++) writeRound();
    expect(walBytes()).toBeGreaterThan(20 * ROUND_PAGES * PAGE);
  });

  it('gives checkpoints back to the connection when it closes', async () => {
    checkpointer = new WalCheckpointer(db, { logger, intervalMs: 20 });
    checkpointer.start();
    expect(autocheckpoint()).toBe(0);
    await checkpointer.close();
    expect(autocheckpoint()).toBe(1000);
  });

  it('when its thread cannot work (here the file moved away), lets the connection checkpoint on its own again, and logs why', async () => {
    renameSync(db.name, join(dir.path, 'moved.db'));
    checkpointer = new WalCheckpointer(db, { logger, intervalMs: 20 });
    checkpointer.start();
    await until(() => autocheckpoint() === 1000, 'checkpoints given back');
    expect(logged.join('')).toContain('the checkpoint thread failed; the daemon checkpoints on its own again');
  });
});
