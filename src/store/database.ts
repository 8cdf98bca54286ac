import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from './migrate.js';

export type Db = Database.Database;

/** Opens (creating if needed) the SQLite file in WAL mode with foreign keys on, and brings its schema up to date. */
export function openDatabase(path: string): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = NORMAL');
  // Savepoints (one per unit of a group commit, see group-commit.ts) journal the pages they change; in a temp
  // file that was two writes per page, most of what a run creation cost.
  db.pragma('temp_store = MEMORY');
  // Several processes share the file (the daemon, CLI admin commands); wait for a writer instead of failing.
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}
