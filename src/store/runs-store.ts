import type Database from 'better-sqlite3';
import type { DataVersion } from './data-version.js';
import type { Db } from './database.js';
import { RUN_COLUMNS, runRow } from './run-columns.js';
import { RunRowCache } from './run-row-cache.js';
import { toPage, type Page, type PageQuery } from './page.js';

export type RunStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

/** JSON members (inputs, output_schema, result, evidence, connections, warnings) are stored as JSON text. */
export interface RunRow {
  id: string;
  org_id: string;
  key_id: string | null;
  project_id: string;
  job_id: string | null;
  name: string | null;
  source: string;
  prompt: string;
  inputs: string;
  model: string;
  output_schema: string | null;
  callback_url: string | null;
  connections: string;
  timeout_s: number;
  status: RunStatus;
  attempt: number;
  result: string | null;
  confidence: string | null;
  evidence: string | null;
  failure_reason: string | null;
  failure_detail: string | null;
  warnings: string;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  step_count: number;
  last_action: string | null;
  lease_owner: string | null;
  lease_expires_at: number | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  updated_at: string;
}

export type RunPatch = Partial<Omit<RunRow, 'id' | 'org_id' | 'status'>>;

export type NewRunRow = Pick<
  RunRow,
  | 'id' | 'org_id' | 'key_id' | 'project_id' | 'job_id' | 'name' | 'source' | 'prompt' | 'inputs' | 'model' | 'output_schema' | 'callback_url'
  | 'connections' | 'timeout_s' | 'status' | 'attempt' | 'warnings' | 'created_at' | 'updated_at'
>;

/** What claiming a queued run needs to know before its compare-and-set. */
export type ClaimableRun = Pick<RunRow, 'id' | 'attempt' | 'started_at'>;

export interface RunEventRow {
  id: number;
  run_id: string;
  from_status: RunStatus | null;
  to_status: RunStatus;
  description: string;
  created_at: string;
}

const PATCHABLE = new Set<string>([
  'attempt', 'result', 'confidence', 'evidence', 'failure_reason', 'failure_detail', 'warnings', 'input_tokens', 'output_tokens',
  'cost_usd', 'step_count', 'last_action', 'lease_owner', 'lease_expires_at', 'started_at', 'finished_at', 'updated_at',
]);

export class RunsStore {
  private readonly s;
  private readonly casCache = new Map<string, Database.Statement<unknown[], unknown[]>>();
  private readonly patchCache = new Map<string, Database.Statement>();
  private readonly rows: RunRowCache;

  constructor(
    private readonly db: Db,
    dataVersion: DataVersion,
  ) {
    this.rows = new RunRowCache(db, dataVersion);
    this.s = {
      // Positional parameters: binding 19 named ones looks each name up on the object.
      insert: db.prepare(
        `INSERT INTO runs (id, org_id, key_id, project_id, job_id, name, source, prompt, inputs, model, output_schema, callback_url, connections, timeout_s,
           status, attempt, warnings, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      get: raw<[string, string]>(db, `SELECT ${RUN_COLUMNS} FROM runs WHERE id = ? AND org_id = ?`),
      getAny: raw<[string]>(db, `SELECT ${RUN_COLUMNS} FROM runs WHERE id = ?`),
      first: raw<[string, number]>(db, `SELECT ${RUN_COLUMNS} FROM runs WHERE org_id = ? ORDER BY id DESC LIMIT ?`),
      after: raw<[string, string, number]>(db, `SELECT ${RUN_COLUMNS} FROM runs WHERE org_id = ? AND id < ? ORDER BY id DESC LIMIT ?`),
      jobFirst: raw<[string, string, number]>(db, `SELECT ${RUN_COLUMNS} FROM runs WHERE org_id = ? AND job_id = ? ORDER BY id DESC LIMIT ?`),
      jobAfter: raw<[string, string, string, number]>(db, `SELECT ${RUN_COLUMNS} FROM runs WHERE org_id = ? AND job_id = ? AND id < ? ORDER BY id DESC LIMIT ?`),
      countActive: db.prepare<[string], number>('SELECT active_runs FROM orgs WHERE id = ?').pluck(),
      addActive: db.prepare<[number, string]>('UPDATE orgs SET active_runs = active_runs + ? WHERE id = ?'),
      nextClaimable: db.prepare<[number], ClaimableRun>(
        `SELECT r.id, r.attempt, r.started_at FROM runs r INDEXED BY runs_queued WHERE r.status = 'queued'
           AND (SELECT COUNT(*) FROM runs x INDEXED BY runs_running WHERE x.org_id = r.org_id AND x.status = 'running') < ?
         ORDER BY r.id LIMIT 1`,
      ),
      renew: db.prepare("UPDATE runs SET lease_expires_at = ? WHERE id = ? AND lease_owner = ? AND status = 'running'"),
      lapsed: raw<[number]>(db, `SELECT ${RUN_COLUMNS} FROM runs INDEXED BY runs_running WHERE status = 'running' AND lease_expires_at < ? ORDER BY id`),
      insertEvent: db.prepare('INSERT INTO run_events (run_id, from_status, to_status, description, created_at) VALUES (?, ?, ?, ?, ?)'),
      events: db.prepare<[string], RunEventRow>('SELECT * FROM run_events WHERE run_id = ? ORDER BY id'),
    };
  }

  /** Inserts a run and counts it in its organisation's active runs, in the caller's transaction or one of its own. */
  insert(row: NewRunRow): void {
    if (!this.db.inTransaction) return this.db.transaction(() => this.insert(row))();
    this.s.insert.run(
      row.id, row.org_id, row.key_id, row.project_id, row.job_id, row.name, row.source, row.prompt, row.inputs, row.model, row.output_schema,
      row.callback_url, row.connections, row.timeout_s, row.status, row.attempt, row.warnings, row.created_at, row.updated_at,
    );
    if (isActive(row.status)) this.s.addActive.run(1, row.org_id);
  }

  /** The run, if it belongs to the organisation. The row is shared (frozen): copy it to change it. */
  get(orgId: string, id: string): RunRow | undefined {
    const cached = this.rows.get(id);
    if (cached !== undefined) return cached.org_id === orgId ? cached : undefined;
    const values = this.s.get.get(id, orgId);
    const row = values && runRow(values);
    this.rows.keep(row);
    return row;
  }

  /** For the engine, which works across organisations. */
  getById(id: string): RunRow | undefined {
    const cached = this.rows.get(id);
    if (cached !== undefined) return cached;
    const values = this.s.getAny.get(id);
    const row = values && runRow(values);
    this.rows.keep(row);
    return row;
  }

  list(orgId: string, q: PageQuery & { jobId: string | null }): Page<RunRow> {
    const n = q.limit + 1;
    const rows =
      q.jobId === null
        ? q.cursor === null
          ? this.s.first.all(orgId, n)
          : this.s.after.all(orgId, q.cursor, n)
        : q.cursor === null
          ? this.s.jobFirst.all(orgId, q.jobId, n)
          : this.s.jobAfter.all(orgId, q.jobId, q.cursor, n);
    return toPage(rows.map(runRow), q.limit);
  }

  /** Queued plus running runs of the organisation (kept by `insert` and `setStatus`, see migration 006). */
  countActive(orgId: string): number {
    return this.s.countActive.get(orgId) ?? 0;
  }

  /** The oldest queued run whose organisation still has a free slot. */
  nextClaimable(maxRunningPerOrg: number): ClaimableRun | undefined {
    return this.s.nextClaimable.get(maxRunningPerOrg);
  }

  /** Running runs whose lease ran out before `nowMs`: their worker died. */
  listLapsed(nowMs: number): RunRow[] {
    return this.s.lapsed.all(nowMs).map(runRow);
  }

  renewLease(id: string, owner: string, expiresAtMs: number): boolean {
    this.rows.drop(id);
    return this.s.renew.run(expiresAtMs, id, owner).changes > 0;
  }

  /**
   * Compare-and-set of the status: succeeds only if the run is still in `from` (and, given `leaseOwner`, still
   * leased by that worker), and answers the updated row. Callers run it inside the transaction that also records
   * the event, so a state change, its event and the organisation's count of active runs are never apart.
   */
  setStatus(id: string, from: RunStatus, to: RunStatus, patch: RunPatch, leaseOwner?: string): RunRow | undefined {
    if (!this.db.inTransaction) return this.db.transaction(() => this.setStatus(id, from, to, patch, leaseOwner))();
    this.rows.drop(id);
    const cols = Object.keys(patch).filter((c) => PATCHABLE.has(c)).sort();
    const sig = `${cols.join(',')}|${leaseOwner === undefined ? '' : 'owner'}`;
    let stmt = this.casCache.get(sig);
    if (!stmt) {
      const sets = ['status = ?', ...cols.map((c) => `${c} = ?`)].join(', ');
      const owner = leaseOwner === undefined ? '' : ' AND lease_owner = ?';
      stmt = raw<unknown[]>(this.db, `UPDATE runs SET ${sets} WHERE id = ? AND status = ?${owner} RETURNING ${RUN_COLUMNS}`);
      this.casCache.set(sig, stmt);
    }
    const args: unknown[] = [to];
    for (const c of cols) args.push(patch[c as keyof RunPatch]);
    args.push(id, from);
    if (leaseOwner !== undefined) args.push(leaseOwner);
    const values = stmt.get(...args);
    if (!values) return undefined;
    const row = runRow(values);
    if (isActive(from) !== isActive(to)) this.s.addActive.run(isActive(to) ? 1 : -1, row.org_id);
    return row;
  }

  /** Updates progress members of a run that is still in `status` (usage, step count, last action). */
  patch(id: string, status: RunStatus, patch: RunPatch): boolean {
    const cols = Object.keys(patch).filter((c) => PATCHABLE.has(c)).sort();
    if (cols.length === 0) return false;
    this.rows.drop(id);
    const sig = cols.join(',');
    let stmt = this.patchCache.get(sig);
    if (!stmt) {
      stmt = this.db.prepare(`UPDATE runs SET ${cols.map((c) => `${c} = ?`).join(', ')} WHERE id = ? AND status = ?`);
      this.patchCache.set(sig, stmt);
    }
    const args: unknown[] = [];
    for (const c of cols) args.push(patch[c as keyof RunPatch]);
    args.push(id, status);
    return stmt.run(...args).changes > 0;
  }

  insertEvent(runId: string, from: RunStatus | null, to: RunStatus, description: string, at: string): void {
    this.s.insertEvent.run(runId, from, to, description, at);
  }

  events(runId: string): RunEventRow[] {
    return this.s.events.all(runId);
  }
}

/** Counted in `orgs.active_runs`, against `limits.max_pending_runs`. */
function isActive(status: RunStatus): boolean {
  return status === 'queued' || status === 'running';
}

/** A statement answering rows as arrays of values (see run-columns.ts). */
function raw<P extends unknown[]>(db: Db, sql: string): Database.Statement<P, unknown[]> {
  return db.prepare<P, unknown[]>(sql).raw();
}
