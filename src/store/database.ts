import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { PRIVATE_FILE_MODE } from '../runtime/private-files.js';
import { migrate } from './migrate.js';

export type Db = Database.Database;

/** Opens (creating if needed) the SQLite file in WAL mode with foreign keys on, and brings its schema up to date. */
export function openDatabase(path: string): Db {
  if (path !== ':memory:') {
    mkdirSync(dirname(path), { recursive: true });
    // Made 0600 before SQLite opens it: SQLite creates the WAL and shared-memory files with the database's mode,
    // and its own default follows the umask (0644, commonly), which let every local user read every run (issue 21).
    closeSync(openSync(path, 'a', PRIVATE_FILE_MODE));
  }
  const db = new Database(path);
  // Before anything is written: a new file then keeps the bookkeeping that lets retention give deleted rows' pages
  // back (PRAGMA incremental_vacuum). On an existing file without it this changes nothing until a full VACUUM
  // (`errand gc --vacuum`, with the daemon stopped) rewrites the file.
  db.pragma('auto_vacuum = INCREMENTAL');
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

/**
 * Opens an existing database file as it is, without migrating it or changing its settings: to copy it (a backup of
 * a daemon's live file, which must not be migrated under it) or to read a backup.
 */
export function openExistingDatabase(path: string): Db {
  const db = new Database(path, { fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  return db;
}
