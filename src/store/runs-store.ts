import type Database from 'better-sqlite3';
import type { StatusMove } from '../lifecycle.js';
import { isTerminal, type RunStatus } from '../vocabulary/run-status.js';
import type { DataVersion } from './data-version.js';
import type { Db } from './database.js';
import { toPage, type Page, type PageQuery } from './page.js';
import { RunRowCache } from './run-row-cache.js';
import { runColumns, type NewRunRow, type RunPatch, type RunRow } from './runs-table.js';
import type { UnitOfWork } from './unit-of-work.js';

/** What claiming a queued run needs to know before its compare-and-set. */
export type ClaimableRun = Pick<RunRow, 'id' | 'org_id' | 'attempt' | 'started_at' | 'sandbox_label'>;

/** An organisation with queued runs, as the dispatcher weighs it: its oldest queued run, and its runs running now. */
export interface WaitingOrg extends ClaimableRun {
  /** Its running runs, whichever daemon on the database file runs them. */
  running: number;
}

/** An organisation whose kept count of active runs differs from a count of its runs. */
export interface ActiveCountDrift {
  org_id: string;
  kept: number;
  counted: number;
}

const COLUMNS = runColumns.selectList;

export class RunsStore {
  private readonly s;
  private readonly casCache = new Map<string, Database.Statement<Record<string, unknown>, unknown[]>>();
  private readonly patchCache = new Map<string, Database.Statement<Record<string, unknown>>>();
  private readonly insertCache = new Map<string, Database.Statement<NewRunRow>>();
  private readonly rows: RunRowCache;

  constructor(
    private readonly db: Db,
    dataVersion: DataVersion,
  ) {
    this.rows = new RunRowCache(db, dataVersion);
    this.s = {
      get: raw(db, `SELECT ${COLUMNS} FROM runs WHERE id = @id AND org_id = @org_id`),
      getAny: raw(db, `SELECT ${COLUMNS} FROM runs WHERE id = @id`),
      first: raw(db, `SELECT ${COLUMNS} FROM runs WHERE org_id = @org_id ORDER BY id DESC LIMIT @limit`),
      after: raw(db, `SELECT ${COLUMNS} FROM runs WHERE org_id = @org_id AND id < @cursor ORDER BY id DESC LIMIT @limit`),
      jobFirst: raw(db, `SELECT ${COLUMNS} FROM runs WHERE org_id = @org_id AND job_id = @job_id ORDER BY id DESC LIMIT @limit`),
      jobAfter: raw(db, `SELECT ${COLUMNS} FROM runs WHERE org_id = @org_id AND job_id = @job_id AND id < @cursor ORDER BY id DESC LIMIT @limit`),
      countActive: db.prepare<{ org_id: string }, number>('SELECT active_runs FROM orgs WHERE id = @org_id').pluck(),
      addActive: db.prepare<{ delta: number; org_id: string }>('UPDATE orgs SET active_runs = active_runs + @delta WHERE id = @org_id'),
      // The partial indexes hold only queued or running runs (migration 006).
      recountActive: db.prepare(
        `UPDATE orgs SET active_runs =
           (SELECT COUNT(*) FROM runs INDEXED BY runs_queued WHERE status = 'queued' AND org_id = orgs.id) +
           (SELECT COUNT(*) FROM runs INDEXED BY runs_running WHERE status = 'running' AND org_id = orgs.id)`,
      ),
      activeByStatus: db.prepare<[], { queued: number; running: number }>(
        `SELECT (SELECT COUNT(*) FROM runs INDEXED BY runs_queued WHERE status = 'queued') AS queued,
                (SELECT COUNT(*) FROM runs INDEXED BY runs_running WHERE status = 'running') AS running`,
      ),
      activeDrift: db.prepare<[], ActiveCountDrift>(
        `SELECT id AS org_id, active_runs AS kept, counted FROM (
           SELECT id, active_runs,
             (SELECT COUNT(*) FROM runs INDEXED BY runs_queued WHERE status = 'queued' AND org_id = orgs.id) +
             (SELECT COUNT(*) FROM runs INDEXED BY runs_running WHERE status = 'running' AND org_id = orgs.id) AS counted
           FROM orgs)
         WHERE active_runs <> counted ORDER BY id`,
      ),
      // The organisations with queued runs, found by a skip-scan of runs_queued (org_id, id): one seek per
      // organisation, however many runs each has queued; with each one's oldest queued run and its running runs.
      waitingOrgs: db.prepare<[], WaitingOrg>(
        `WITH RECURSIVE waiting(org_id) AS (
           SELECT (SELECT MIN(org_id) FROM runs INDEXED BY runs_queued WHERE status = 'queued')
           UNION ALL
           SELECT (SELECT MIN(q.org_id) FROM runs q INDEXED BY runs_queued WHERE q.status = 'queued' AND q.org_id > waiting.org_id)
           FROM waiting WHERE waiting.org_id IS NOT NULL
         )
         SELECT r.id, r.org_id, r.attempt, r.started_at, r.sandbox_label,
           (SELECT COUNT(*) FROM runs x INDEXED BY runs_running WHERE x.status = 'running' AND x.org_id = w.org_id) AS running
         FROM waiting w
         JOIN runs r ON r.id = (SELECT MIN(q.id) FROM runs q INDEXED BY runs_queued WHERE q.status = 'queued' AND q.org_id = w.org_id)`,
      ),
      nextQueuedOf: db.prepare<{ org_id: string; after: string }, ClaimableRun>(
        `SELECT id, org_id, attempt, started_at, sandbox_label FROM runs INDEXED BY runs_queued
         WHERE status = 'queued' AND org_id = @org_id AND id > @after ORDER BY id LIMIT 1`,
      ),
      renew: db.prepare<{ expires_at: number; id: string; owner: string }>(
        "UPDATE runs SET lease_expires_at = @expires_at WHERE id = @id AND lease_owner = @owner AND status = 'running'",
      ),
      lapsed: raw(db, `SELECT ${COLUMNS} FROM runs INDEXED BY runs_running WHERE status = 'running' AND lease_expires_at < @now ORDER BY id`),
      wait: { set: waitStatements(db, 'IS NULL'), clear: waitStatements(db, 'IS NOT NULL') },
    };
  }

  /** Inserts a run and counts it in its organisation's active runs; answers the row as stored. */
  insert(_uow: UnitOfWork, row: NewRunRow): RunRow {
    const sql = runColumns.insertSql(row);
    let stmt = this.insertCache.get(sql);
    if (!stmt) {
      stmt = this.db.prepare<NewRunRow>(sql);
      this.insertCache.set(sql, stmt);
    }
    stmt.run(row);
    if (!isTerminal(row.status)) this.s.addActive.run({ delta: 1, org_id: row.org_id });
    // Built here rather than read back (INSERT ... RETURNING): the store tests check it equals what SQLite stored.
    return runColumns.withDefaults(row);
  }

  /** The run, if it belongs to the organisation. The row is shared (frozen): copy it to change it. */
  get(orgId: string, id: string): RunRow | undefined {
    const cached = this.rows.get(id);
    if (cached !== undefined) return cached.org_id === orgId ? cached : undefined;
    const values = this.s.get.get({ id, org_id: orgId });
    const row = values && runColumns.row(values);
    this.rows.keep(row);
    return row;
  }

  /** For the engine, which works across organisations. */
  getById(id: string): RunRow | undefined {
    const cached = this.rows.get(id);
    if (cached !== undefined) return cached;
    const values = this.s.getAny.get({ id });
    const row = values && runColumns.row(values);
    this.rows.keep(row);
    return row;
  }

  list(orgId: string, q: PageQuery & { jobId: string | null }): Page<RunRow> {
    const params = { org_id: orgId, job_id: q.jobId, cursor: q.cursor, limit: q.limit + 1 };
    const stmt = q.jobId === null ? (q.cursor === null ? this.s.first : this.s.after) : q.cursor === null ? this.s.jobFirst : this.s.jobAfter;
    return toPage(stmt.all(params).map(runColumns.row), q.limit);
  }

  /** Queued plus running runs of the organisation, as kept by `insert` and `setStatus`. */
  countActive(orgId: string): number {
    return this.s.countActive.get({ org_id: orgId }) ?? 0;
  }

  /** Runs queued and running in every organisation (metrics: the queue depth). */
  countActiveByStatus(): { queued: number; running: number } {
    return this.s.activeByStatus.get()!;
  }

  /** Organisations whose kept count of active runs differs from a count of their runs (for `errand doctor`). */
  activeCountDrift(): ActiveCountDrift[] {
    return this.s.activeDrift.all();
  }

  /** Sets every organisation's count of active runs from a count of its runs. */
  recountActive(_uow: UnitOfWork): void {
    this.s.recountActive.run();
  }

  /** Each organisation that has queued runs: its oldest queued run, and how many of its runs are running. */
  waitingOrgs(): WaitingOrg[] {
    return this.s.waitingOrgs.all();
  }

  /** The organisation's oldest queued run after `afterId` (runs passed over, or claimed, in this claim). */
  nextQueuedOf(orgId: string, afterId: string): ClaimableRun | undefined {
    return this.s.nextQueuedOf.get({ org_id: orgId, after: afterId });
  }

  /** Running runs whose lease ran out before `nowMs`: their worker died. */
  listLapsed(nowMs: number): RunRow[] {
    return this.s.lapsed.all({ now: nowMs }).map(runColumns.row);
  }

  /**
   * Ends `owner`'s lease on the run now, so that the next recovery re-queues it as after a daemon crash: an attempt
   * stopped because its sandbox host was lost (issue 26).
   */
  lapseLease(id: string, owner: string, nowMs: number): boolean {
    return this.renewLease(id, owner, nowMs - 1);
  }

  renewLease(id: string, owner: string, expiresAtMs: number): boolean {
    this.rows.drop(id);
    return this.s.renew.run({ expires_at: expiresAtMs, id, owner }).changes > 0;
  }

  /**
   * Compare-and-set of the status: succeeds only if the run is still in `move.from` (and, given `leaseOwner`, still
   * leased by that worker), and answers the updated row. It runs inside the unit of work that also records the
   * event, so a state change, its event and the organisation's count of active runs are never apart.
   */
  setStatus(_uow: UnitOfWork, id: string, move: StatusMove<RunStatus>, patch: RunPatch, leaseOwner: string | null = null): RunRow | undefined {
    this.rows.drop(id);
    const names = runColumns.patchedNames(patch);
    const sig = `${names.join(',')}|${leaseOwner === null ? '' : 'owner'}`;
    let stmt = this.casCache.get(sig);
    if (!stmt) {
      const sets = ['status = @to', ...names.map((c) => `${c} = @${c}`)].join(', ');
      const owner = leaseOwner === null ? '' : ' AND lease_owner = @lease_owner_was';
      stmt = raw(this.db, `UPDATE runs SET ${sets} WHERE id = @id AND status = @from${owner} RETURNING ${COLUMNS}`);
      this.casCache.set(sig, stmt);
    }
    const { from, to } = move;
    const values = stmt.get({ ...patch, id, from, to, lease_owner_was: leaseOwner });
    if (!values) return undefined;
    const row = runColumns.row(values);
    if (isTerminal(from) !== isTerminal(to)) this.s.addActive.run({ delta: isTerminal(to) ? -1 : 1, org_id: row.org_id });
    return row;
  }

  /**
   * Sets what a run in `during` waits for (pause: only one waiting for nothing) or clears it (resume, null: only one
   * that waits); given `leaseOwner`, only while that worker holds it. Answers the updated row.
   */
  setWaiting(_uow: UnitOfWork, id: string, change: { during: RunStatus; waitingFor: string | null; leaseOwner: string | null; updatedAt: string }): RunRow | undefined {
    this.rows.drop(id);
    const stmt = this.s.wait[change.waitingFor === null ? 'clear' : 'set'][change.leaseOwner === null ? 'any' : 'owner'];
    const values = stmt.get({ id, status: change.during, waiting_for: change.waitingFor, updated_at: change.updatedAt, lease_owner_was: change.leaseOwner });
    return values && runColumns.row(values);
  }

  /** Drops deleted runs from the row cache (retention deletes them in batches, outside this store). */
  forget(ids: readonly string[]): void {
    for (const id of ids) this.rows.drop(id);
  }

  /** Updates progress members of a run that is still in `status` (usage, step count, last action). */
  patch(id: string, status: RunStatus, patch: RunPatch): boolean {
    const names = runColumns.patchedNames(patch);
    if (names.length === 0) return false;
    this.rows.drop(id);
    const sig = names.join(',');
    let stmt = this.patchCache.get(sig);
    if (!stmt) {
      stmt = this.db.prepare(`UPDATE runs SET ${names.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id AND status = @status_is`);
      this.patchCache.set(sig, stmt);
    }
    return stmt.run({ ...patch, id, status_is: status }).changes > 0;
  }

}

/** pause's (`waiting_for IS NULL`) or resume's (`IS NOT NULL`) compare-and-set, with and without the lease. */
function waitStatements(db: Db, waiting: 'IS NULL' | 'IS NOT NULL') {
  const sql = `UPDATE runs SET waiting_for = @waiting_for, updated_at = @updated_at WHERE id = @id AND status = @status AND waiting_for ${waiting}`;
  return { any: raw(db, `${sql} RETURNING ${COLUMNS}`), owner: raw(db, `${sql} AND lease_owner = @lease_owner_was RETURNING ${COLUMNS}`) };
}

/** A statement answering rows as arrays of values, built into rows by `runColumns.row`. */
function raw(db: Db, sql: string): Database.Statement<Record<string, unknown>, unknown[]> {
  return db.prepare<Record<string, unknown>, unknown[]>(sql).raw();
}
