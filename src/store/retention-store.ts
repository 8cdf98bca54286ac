import type Database from 'better-sqlite3';
import { idBoundAt, type IdPrefix } from '../ids.js';
import type { Db } from './database.js';
import type { UnitOfWork } from './unit-of-work.js';

/**
 * How a row's age is read, so that the rows older than a time are found through an index, never by reading every
 * row's time:
 * - `id`: the key is an id minted when the row was made (`run_01...`), whose first digits are that time; older rows
 *   sort below `idBoundAt(prefix, cutoff)`, a range of the primary key.
 * - `epoch-ms`: an indexed column of milliseconds.
 * - `appended`: rows are appended in time order under a growing INTEGER PRIMARY KEY and carry an RFC 3339 `column`;
 *   the first key at or after the cutoff is found by bisection of the key, and older rows are the keys below it.
 */
export type RetentionAge = { by: 'id'; prefix: IdPrefix } | { by: 'epoch-ms'; column: string } | { by: 'appended'; column: string };

/**
 * One kind of data that is kept for a while and then purged: its table, how its age is read, which of its rows are
 * finished with, the rows of other tables that go with it, and the file on disk that goes with it. Adding a table
 * to retention is one entry in `RETENTION_KINDS` (and, for a configurable window, its key in config/schema.ts).
 */
export interface RetentionKindSpec {
  name: string;
  table: string;
  /** The column the batch statements name rows by; `rowid` for a table without a single-column key. */
  key: string;
  age: RetentionAge;
  /** Only rows matching this condition go (a run that has ended, a delivery that is no longer retried). */
  done?: string;
  /** Rows of other tables that belong to a purged row, by a column holding its key; deleted in the same transaction. Rows reached by ON DELETE CASCADE need no entry. */
  dependents?: readonly { table: string; column: string }[];
  /** Files that go with a purged row. */
  file?: RetentionFiles;
}

/**
 * Files named by rows: the column of a file's path (relative to `root`, a directory of the data directory in
 * `runtime/paths.ts`) and of its size in bytes. The rows are the kind's own, or, with `of`, rows of another table
 * whose `column` holds a purged row's key (attachments of a received email), one row and file each.
 */
export interface RetentionFiles {
  root: 'artifacts' | 'mailAttachments';
  of?: { table: string; column: string };
  path: string;
  bytes: string;
}

/** The kinds, each defined once; `src/retention/retention-windows.ts` says how long each is kept. */
export const RETENTION_KINDS = [
  {
    name: 'runs',
    table: 'runs',
    key: 'id',
    age: { by: 'id', prefix: 'run' },
    done: "status IN ('succeeded', 'failed', 'cancelled')",
    // run_steps go by their foreign key's cascade. Spend totals (spend_totals) are kept by an insert trigger and
    // stay: the caps and month-to-date figures read them, not the entries.
    dependents: [{ table: 'spend_entries', column: 'run_id' }],
  },
  {
    // An eval's cases (eval_results) go by their foreign key's cascade. Kept cases (eval_cases) are a job's, not history.
    name: 'evals',
    table: 'evals',
    key: 'id',
    age: { by: 'id', prefix: 'eval' },
    done: "status IN ('completed', 'cancelled')",
  },
  { name: 'events', table: 'events', key: 'id', age: { by: 'appended', column: 'created_at' } },
  { name: 'artifacts', table: 'artifacts', key: 'id', age: { by: 'id', prefix: 'art' }, file: { root: 'artifacts', path: 'path', bytes: 'bytes' } },
  {
    name: 'webhook_deliveries',
    table: 'webhook_deliveries',
    key: 'id',
    age: { by: 'id', prefix: 'whd' },
    // Attempts go by their foreign key's cascade.
    done: "status <> 'pending'",
  },
  { name: 'idempotency_keys', table: 'idempotency_keys', key: 'rowid', age: { by: 'epoch-ms', column: 'created_at' } },
  {
    name: 'sent_emails',
    table: 'emails',
    key: 'id',
    age: { by: 'id', prefix: 'msg' },
    // Recipients go by their foreign key's cascade. A message waiting for approval, or still on the outbound queue
    // (scheduled, or with recipients to retry), is not history yet.
    done: "status IN ('sent', 'rejected') AND NOT EXISTS (SELECT 1 FROM email_queue WHERE email_queue.email_id = emails.id)",
  },
  {
    name: 'received_emails',
    table: 'received_emails',
    key: 'id',
    age: { by: 'id', prefix: 'msg' },
    // Attachment rows go by their foreign key's cascade, once their files are gone.
    file: { root: 'mailAttachments', of: { table: 'email_attachments', column: 'received_id' }, path: 'path', bytes: 'bytes' },
  },
  {
    // OAuth clients nobody has signed in with: registration is open to anyone (issue 21). Their sign-ins under way go
    // by their foreign key's cascade.
    name: 'mcp_unused_clients',
    table: 'mcp_clients',
    key: 'id',
    age: { by: 'id', prefix: 'mcpc' },
    done: 'signed_in_at IS NULL',
  },
  // Sign-ins on the MCP consent page (authorization requests), by their expiry rather than their creation.
  { name: 'mcp_sign_ins', table: 'mcp_consents', key: 'rowid', age: { by: 'epoch-ms', column: 'expires_at' } },
] as const satisfies readonly RetentionKindSpec[];

export type RetentionKindName = (typeof RETENTION_KINDS)[number]['name'];

/** Rows of one kind picked for purging, oldest first. */
export interface RetentionBatch {
  keys: (string | number)[];
  /** Paths, relative to the kind's `file.root`, of the files that go with them. */
  files: string[];
}

/** What would go: rows and the bytes of their files. */
export interface RetentionCount {
  rows: number;
  bytes: number;
}

interface KindStatements {
  spec: RetentionKindSpec;
  batch: Database.Statement<{ bound: string | number; limit: number }, { key: string | number; file: string | null }>;
  count: Database.Statement<{ bound: string | number }, { rows: number; bytes: number | null }>;
  remove: Database.Statement<{ keys: string; bound: string | number }, string | number>;
  /** For files in rows of another table: their paths, by the keys of a batch. */
  filesOf?: Database.Statement<{ keys: string }, string>;
  dependents: Database.Statement<{ keys: string }>[];
  /** For `appended` ages: the key range, and the first row at or after a key. */
  range?: Database.Statement<[], { lo: number | null; hi: number | null }>;
  at?: Database.Statement<{ key: number }, { key: number; at: string }>;
}

/**
 * The statements of every retention kind, built from its definition. Purging is in batches: `batch` picks the
 * oldest finished rows (outside a transaction, so their files can be removed first), `remove` deletes them and
 * their dependents in the caller's unit of work, checking age and condition again. `onDeleted` hears of keys
 * deleted (RunsStore drops them from its row cache).
 */
export class RetentionStore {
  private readonly kinds = new Map<string, KindStatements>();
  private readonly freelist: Database.Statement<[], number>;
  private readonly autoVacuum: Database.Statement<[], number>;

  constructor(
    private readonly db: Db,
    private readonly onDeleted: Partial<Record<RetentionKindName, (keys: (string | number)[]) => void>> = {},
  ) {
    for (const spec of RETENTION_KINDS as readonly RetentionKindSpec[]) this.kinds.set(spec.name, prepare(db, spec));
    this.freelist = db.prepare<[], number>('PRAGMA freelist_count').pluck();
    this.autoVacuum = db.prepare<[], number>('PRAGMA auto_vacuum').pluck();
  }

  /** Whether the file gives free pages back on `vacuumStep` (auto_vacuum is INCREMENTAL: see database.ts). */
  vacuumsIncrementally(): boolean {
    return this.autoVacuum.get() === 2;
  }

  /** Pages of the file that hold nothing since rows were deleted. */
  freePages(): number {
    return this.freelist.get()!;
  }

  /** Gives up to `pages` free pages back to the file system (the file shrinks at the next checkpoint). */
  vacuumStep(_uow: UnitOfWork, pages: number): void {
    // exec, not a prepared statement: the pragma frees one page per step, and run() steps once.
    this.db.exec(`PRAGMA incremental_vacuum(${Math.max(1, Math.floor(pages))})`);
  }

  /**
   * Rewrites the whole file (VACUUM) so that it keeps the bookkeeping incremental vacuum needs; for a file made before
   * that was set. It holds the write lock until it is done: only with the daemon stopped.
   */
  vacuumFully(): void {
    this.db.pragma('auto_vacuum = INCREMENTAL');
    this.db.exec('VACUUM');
  }

  /** The value rows are older than at `cutoffMs`: an id, milliseconds, or a key found by bisection. */
  bound(kind: RetentionKindName, cutoffMs: number): string | number {
    const k = this.kind(kind);
    const age = k.spec.age;
    switch (age.by) {
      case 'id':
        return idBoundAt(age.prefix, cutoffMs);
      case 'epoch-ms':
        return cutoffMs;
      case 'appended':
        return bisect(k, new Date(cutoffMs).toISOString());
      default:
        return assertNever(age);
    }
  }

  count(kind: RetentionKindName, bound: string | number): RetentionCount {
    const row = this.kind(kind).count.get({ bound })!;
    return { rows: row.rows, bytes: row.bytes ?? 0 };
  }

  /** Up to `limit` of the oldest rows below `bound` that are finished with. */
  nextBatch(kind: RetentionKindName, bound: string | number, limit: number): RetentionBatch {
    const k = this.kind(kind);
    const rows = k.batch.all({ bound, limit });
    const keys = rows.map((r) => r.key);
    const files = k.filesOf === undefined ? rows.flatMap((r) => (r.file === null ? [] : [r.file])) : keys.length === 0 ? [] : k.filesOf.all({ keys: JSON.stringify(keys) });
    return { keys, files };
  }

  /** Deletes the batch's rows that are still old and finished with, and their dependents; answers how many went. */
  removeBatch(_uow: UnitOfWork, kind: RetentionKindName, bound: string | number, keys: (string | number)[]): number {
    const k = this.kind(kind);
    const removed = k.remove.all({ keys: JSON.stringify(keys), bound });
    if (removed.length === 0) return 0;
    const json = JSON.stringify(removed);
    for (const dependent of k.dependents) dependent.run({ keys: json });
    this.onDeleted[kind]?.(removed);
    return removed.length;
  }

  private kind(name: RetentionKindName): KindStatements {
    return this.kinds.get(name)!;
  }
}

function prepare(db: Db, spec: RetentionKindSpec): KindStatements {
  const ageColumn = spec.age.by === 'epoch-ms' ? spec.age.column : spec.key;
  const old = `${ageColumn} < @bound${spec.done === undefined ? '' : ` AND ${spec.done}`}`;
  const own = spec.file !== undefined && spec.file.of === undefined ? spec.file : undefined;
  const of = spec.file?.of;
  const file = own === undefined ? 'NULL' : own.path;
  const bytes =
    spec.file === undefined
      ? '0'
      : of === undefined
        ? `SUM(${spec.file.bytes})`
        : `(SELECT SUM(${spec.file.bytes}) FROM ${of.table} WHERE ${of.column} IN (SELECT ${spec.key} FROM ${spec.table} WHERE ${old}))`;
  const statements: KindStatements = {
    spec,
    batch: db.prepare(`SELECT ${spec.key} AS key, ${file} AS file FROM ${spec.table} WHERE ${old} ORDER BY ${ageColumn} LIMIT @limit`),
    count: db.prepare(`SELECT COUNT(*) AS rows, ${bytes} AS bytes FROM ${spec.table} WHERE ${old}`),
    remove: db.prepare<{ keys: string; bound: string | number }, string | number>(
      `DELETE FROM ${spec.table} WHERE ${spec.key} IN (SELECT value FROM json_each(@keys)) AND ${old} RETURNING ${spec.key}`,
    ).pluck(),
    dependents: (spec.dependents ?? []).map((d) => db.prepare(`DELETE FROM ${d.table} WHERE ${d.column} IN (SELECT value FROM json_each(@keys))`)),
  };
  if (spec.file !== undefined && of !== undefined) {
    statements.filesOf = db.prepare<{ keys: string }, string>(`SELECT ${spec.file.path} FROM ${of.table} WHERE ${of.column} IN (SELECT value FROM json_each(@keys))`).pluck();
  }
  if (spec.age.by === 'appended') {
    // Two sub-queries: MIN and MAX in one SELECT read the whole table instead of one end of the key each.
    statements.range = db.prepare(`SELECT (SELECT MIN(${spec.key}) FROM ${spec.table}) AS lo, (SELECT MAX(${spec.key}) FROM ${spec.table}) AS hi`);
    statements.at = db.prepare(`SELECT ${spec.key} AS key, ${spec.age.column} AS at FROM ${spec.table} WHERE ${spec.key} >= @key ORDER BY ${spec.key} LIMIT 1`);
  }
  return statements;
}

/** The smallest key whose row is not older than `cutoff`, in a table appended in time order (a few reads). */
function bisect(k: KindStatements, cutoff: string): number {
  const { lo: min, hi: max } = k.range!.get()!;
  if (min === null || max === null) return 0;
  let lo = min;
  let hi = max + 1;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    const row = k.at!.get({ key: mid })!;
    if (row.at < cutoff) lo = row.key + 1;
    else hi = mid;
  }
  return lo;
}

function assertNever(value: never): never {
  throw new Error(`unexpected retention age ${JSON.stringify(value)}`);
}
