import type { DataVersion } from './data-version.js';
import type { Db } from './database.js';
import type { RunRow } from './runs-table.js';

const MAX_ROWS = 1024;
/** Rows with more text than this (long prompts, inputs or results) are read from SQLite each time. */
const MAX_ROW_CHARS = 16 * 1024;

/**
 * Runs read recently, so that polling a run, the API's hottest call, does not read SQLite each time. It stays true
 * because of how RunsStore keeps it:
 * - every write to a run goes through RunsStore, which drops the run's entry;
 * - a row read inside a transaction is not kept, as the transaction may still roll back;
 * - everything is dropped once another connection has committed (`data_version`), as it may have written any run.
 * Rows are frozen because callers share them.
 */
export class RunRowCache {
  private readonly rows = new Map<string, RunRow>();
  private version = -1;

  constructor(
    private readonly db: Db,
    private readonly dataVersion: DataVersion,
  ) {}

  get(id: string): RunRow | undefined {
    const version = this.dataVersion.get();
    if (version !== this.version) {
      this.rows.clear();
      this.version = version;
      return undefined;
    }
    return this.rows.get(id);
  }

  /** Keeps a row just read by `get`'s caller, when it is safe and small enough to. */
  keep(row: RunRow | undefined): void {
    if (row === undefined || this.db.inTransaction || textLength(row) > MAX_ROW_CHARS) return;
    if (this.rows.size >= MAX_ROWS) this.rows.delete(this.rows.keys().next().value!);
    this.rows.set(row.id, Object.freeze(row));
  }

  drop(id: string): void {
    this.rows.delete(id);
  }
}

function textLength(row: RunRow): number {
  let n = 0;
  for (const value of Object.values(row)) if (typeof value === 'string') n += value.length;
  return n;
}
