import type Database from 'better-sqlite3';
import type { Db } from './database.js';

/**
 * SQLite's `data_version` for this connection: it changes when another connection (the CLI revoking a key,
 * another process on the same file) commits, and never for this connection's own writes. Caches that must notice
 * other processes' writes ask for it on every request, and reading it costs a read transaction (with the fcntl
 * locks on the WAL's shared memory), so it is read at most once per turn of the event loop.
 * A commit made by another process during a turn is seen from the next turn on: requests that arrive after it
 * are read from their sockets in a later turn.
 */
export class DataVersion {
  private readonly stmt: Database.Statement<[], number>;
  private current: number | null = null;
  private readonly forget = () => {
    this.current = null;
  };

  constructor(db: Db) {
    this.stmt = db.prepare<[], number>('PRAGMA data_version').pluck();
  }

  get(): number {
    if (this.current === null) {
      this.current = this.stmt.get()!;
      setImmediate(this.forget);
    }
    return this.current;
  }
}
