import type Database from 'better-sqlite3';
import type { StatusMove } from '../lifecycle.js';
import type { CaseOutcome, EvalStatus } from '../vocabulary/evals.js';
import type { FailureReason } from '../vocabulary/run-outcomes.js';
import type { RunStatus } from '../vocabulary/run-status.js';
import { defineColumns, fixed, patchable, type RowOf } from './columns.js';
import type { Db } from './database.js';
import { toPage, type Page, type PageQuery } from './page.js';
import type { RunRow } from './runs-table.js';
import type { UnitOfWork } from './unit-of-work.js';

/** A case kept with a job (migration 035): its inputs and expectation as JSON text. */
export const evalCaseColumns = defineColumns('eval_cases', {
  id: fixed<string>(),
  org_id: fixed<string>(),
  job_id: fixed<string>(),
  name: fixed<string | null>(),
  inputs: fixed<string>(),
  expect: fixed<string>(),
  created_at: fixed<string>(),
});
export type EvalCaseRow = RowOf<typeof evalCaseColumns>;

/** An eval of a job: what its runs take instead of the job's, and where it is. `status` changes only through `setStatus`. */
export const evalColumns = defineColumns('evals', {
  id: fixed<string>(),
  org_id: fixed<string>(),
  job_id: fixed<string>(),
  key_id: fixed<string>(),
  status: fixed<EvalStatus>(),
  replay: fixed<RunRow['replay']>(),
  model: fixed<string | null>(),
  prompt: fixed<string | null>(),
  settings: fixed<string>(),
  baseline_id: fixed<string | null>(),
  max_parallel: fixed<number>(),
  idempotency_key: fixed<string | null>(),
  request_hash: fixed<string | null>(),
  created_at: fixed<string>(),
  started_at: patchable<string | null>(null),
  finished_at: patchable<string | null>(null),
  updated_at: patchable<string>(),
});
export type EvalRow = RowOf<typeof evalColumns>;

/** One case of an eval, copied when the eval was made, with its run and its grade once the run has ended. */
export const evalResultColumns = defineColumns('eval_results', {
  eval_id: fixed<string>(),
  position: fixed<number>(),
  case_id: fixed<string | null>(),
  name: fixed<string | null>(),
  inputs: fixed<string>(),
  expect: fixed<string>(),
  run_id: patchable<string | null>(null),
  outcome: patchable<CaseOutcome | null>(null),
  /** JSON text of the differences (src/evals/matchers.ts, Difference). */
  differences: patchable<string>('[]'),
  error: patchable<string | null>(null),
  run_status: patchable<RunStatus | null>(null),
  result: patchable<string | null>(null),
  failure_reason: patchable<FailureReason | null>(null),
  failure_detail: patchable<string | null>(null),
  mode: patchable<RunRow['mode'] | null>(null),
  duration_ms: patchable<number | null>(null),
  input_tokens: patchable<number>(0),
  output_tokens: patchable<number>(0),
  cost_usd: patchable<number>(0),
  started_at: patchable<string | null>(null),
  ended_at: patchable<string | null>(null),
});
export type EvalResultRow = RowOf<typeof evalResultColumns>;
export type NewEvalResultRow = Pick<EvalResultRow, 'eval_id' | 'position' | 'case_id' | 'name' | 'inputs' | 'expect'>;

/** The columns grading a case's run writes. */
const GRADED = ['outcome', 'differences', 'error', 'run_status', 'result', 'failure_reason', 'failure_detail', 'mode', 'duration_ms', 'input_tokens', 'output_tokens', 'cost_usd', 'ended_at'] as const satisfies readonly (keyof EvalResultRow)[];
export type EvalGrade = Pick<EvalResultRow, (typeof GRADED)[number]>;

/** Cases whose run has started and not been graded, per eval: what counts against evals.max_parallel. */
export interface InFlight {
  eval_id: string;
  org_id: string;
  count: number;
}

type PageParams = { job_id: string; cursor: string | null; limit: number };

/**
 * Jobs' kept cases, their evals and each eval's cases with their runs and grades. Rows are found by job id, eval id
 * or run id alone once the service has found the job or eval in its organisation (ids are never another's).
 */
export class EvalsStore {
  private readonly s;

  constructor(db: Db) {
    const cases = evalCaseColumns.selectList;
    const evals = evalColumns.selectList;
    const results = evalResultColumns.selectList;
    this.s = {
      insertCase: db.prepare(insertAll(evalCaseColumns.table, evalCaseColumns.names)),
      getCase: raw(db, `SELECT ${cases} FROM eval_cases WHERE id = @id AND org_id = @org_id`),
      casesFirst: raw(db, `SELECT ${cases} FROM eval_cases WHERE job_id = @job_id ORDER BY id DESC LIMIT @limit`),
      casesAfter: raw(db, `SELECT ${cases} FROM eval_cases WHERE job_id = @job_id AND id < @cursor ORDER BY id DESC LIMIT @limit`),
      casesInOrder: raw(db, `SELECT ${cases} FROM eval_cases WHERE job_id = @job_id ORDER BY id LIMIT @limit`),
      countCases: db.prepare<{ job_id: string }, number>('SELECT COUNT(*) FROM eval_cases WHERE job_id = @job_id').pluck(),
      deleteCase: db.prepare<{ id: string; org_id: string }>('DELETE FROM eval_cases WHERE id = @id AND org_id = @org_id'),

      insertEval: db.prepare(insertAll(evalColumns.table, evalColumns.names)),
      getEval: raw(db, `SELECT ${evals} FROM evals WHERE id = @id AND org_id = @org_id`),
      getEvalById: raw(db, `SELECT ${evals} FROM evals WHERE id = @id`),
      evalsFirst: raw(db, `SELECT ${evals} FROM evals WHERE job_id = @job_id ORDER BY id DESC LIMIT @limit`),
      evalsAfter: raw(db, `SELECT ${evals} FROM evals WHERE job_id = @job_id AND id < @cursor ORDER BY id DESC LIMIT @limit`),
      byIdempotencyKey: raw(
        db,
        `SELECT ${evals} FROM evals INDEXED BY evals_idempotency WHERE org_id = @org_id AND job_id = @job_id AND idempotency_key = @key AND created_at >= @since ORDER BY id DESC LIMIT 1`,
      ),
      active: raw(db, `SELECT ${evals} FROM evals INDEXED BY evals_active WHERE status IN ('queued', 'running') ORDER BY id`),
      setStatus: raw(
        db,
        `UPDATE evals SET status = @to, started_at = COALESCE(started_at, @started_at), finished_at = @finished_at, updated_at = @updated_at
          WHERE id = @id AND status = @from RETURNING ${evals}`,
      ),

      insertResult: db.prepare(insertAll(evalResultColumns.table, ['eval_id', 'position', 'case_id', 'name', 'inputs', 'expect'])),
      resultsOf: raw(db, `SELECT ${results} FROM eval_results WHERE eval_id = @eval_id ORDER BY position`),
      unstarted: raw(db, `SELECT ${results} FROM eval_results WHERE eval_id = @eval_id AND run_id IS NULL AND outcome IS NULL ORDER BY position LIMIT @limit`),
      byRun: raw(db, `SELECT ${results} FROM eval_results INDEXED BY eval_results_in_flight WHERE run_id = @run_id AND outcome IS NULL`),
      ungraded: raw(db, `SELECT ${results} FROM eval_results INDEXED BY eval_results_in_flight WHERE run_id IS NOT NULL AND outcome IS NULL`),
      inFlight: db.prepare<[], InFlight>(
        'SELECT eval_id, COUNT(*) AS count FROM eval_results INDEXED BY eval_results_in_flight WHERE run_id IS NOT NULL AND outcome IS NULL GROUP BY eval_id',
      ),
      pending: db.prepare<{ eval_id: string }, number>('SELECT COUNT(*) FROM eval_results WHERE eval_id = @eval_id AND outcome IS NULL').pluck(),
      linkRun: db.prepare<{ eval_id: string; position: number; run_id: string; started_at: string }>(
        'UPDATE eval_results SET run_id = @run_id, started_at = @started_at WHERE eval_id = @eval_id AND position = @position AND run_id IS NULL AND outcome IS NULL',
      ),
      grade: db.prepare(
        `UPDATE eval_results SET ${GRADED.map((c) => `${c} = @${c}`).join(', ')}
          WHERE eval_id = @eval_id AND position = @position AND outcome IS NULL`,
      ),
      refuse: db.prepare<{ eval_id: string; position: number; error: string; ended_at: string }>(
        "UPDATE eval_results SET outcome = 'error', error = @error, ended_at = @ended_at WHERE eval_id = @eval_id AND position = @position AND run_id IS NULL AND outcome IS NULL",
      ),
      skipUnstarted: db.prepare<{ eval_id: string; ended_at: string }>(
        "UPDATE eval_results SET outcome = 'skipped', ended_at = @ended_at WHERE eval_id = @eval_id AND run_id IS NULL AND outcome IS NULL",
      ),
    };
  }

  insertCase(row: EvalCaseRow): void {
    this.s.insertCase.run(row);
  }

  getCase(orgId: string, id: string): EvalCaseRow | undefined {
    const values = this.s.getCase.get({ id, org_id: orgId });
    return values && evalCaseColumns.row(values);
  }

  /** A job's kept cases, newest first. */
  listCases(jobId: string, q: PageQuery): Page<EvalCaseRow> {
    const stmt = q.cursor === null ? this.s.casesFirst : this.s.casesAfter;
    return toPage(stmt.all({ job_id: jobId, cursor: q.cursor, limit: q.limit + 1 }).map(evalCaseColumns.row), q.limit);
  }

  /** A job's kept cases in the order they were added, at most `limit`. */
  casesInOrder(jobId: string, limit: number): EvalCaseRow[] {
    return this.s.casesInOrder.all({ job_id: jobId, limit }).map(evalCaseColumns.row);
  }

  countCases(jobId: string): number {
    return this.s.countCases.get({ job_id: jobId }) ?? 0;
  }

  deleteCase(orgId: string, id: string): boolean {
    return this.s.deleteCase.run({ id, org_id: orgId }).changes > 0;
  }

  /** An eval and its cases, in one unit of work. */
  insertEval(_uow: UnitOfWork, row: EvalRow, cases: readonly NewEvalResultRow[]): void {
    this.s.insertEval.run(row);
    for (const c of cases) this.s.insertResult.run(c);
  }

  getEval(orgId: string, id: string): EvalRow | undefined {
    const values = this.s.getEval.get({ id, org_id: orgId });
    return values && evalColumns.row(values);
  }

  /** For the runner, which works across organisations. */
  getEvalById(id: string): EvalRow | undefined {
    const values = this.s.getEvalById.get({ id });
    return values && evalColumns.row(values);
  }

  /** A job's evals, newest first. */
  listEvals(jobId: string, q: PageQuery): Page<EvalRow> {
    const stmt = q.cursor === null ? this.s.evalsFirst : this.s.evalsAfter;
    return toPage(stmt.all({ job_id: jobId, cursor: q.cursor, limit: q.limit + 1 } satisfies PageParams).map(evalColumns.row), q.limit);
  }

  /** The newest eval of the job made with this idempotency key since `sinceIso`. */
  findByIdempotencyKey(orgId: string, jobId: string, key: string, sinceIso: string): EvalRow | undefined {
    const values = this.s.byIdempotencyKey.get({ org_id: orgId, job_id: jobId, key, since: sinceIso });
    return values && evalColumns.row(values);
  }

  /** Evals queued or running, oldest first. */
  active(): EvalRow[] {
    return this.s.active.all({}).map(evalColumns.row);
  }

  /** Moves the eval where it still is at `move.from`; answers the row, or undefined when it was elsewhere. */
  setStatus(_uow: UnitOfWork, id: string, move: StatusMove<EvalStatus>, at: { started_at?: string; finished_at?: string; updated_at: string }): EvalRow | undefined {
    const values = this.s.setStatus.get({ id, from: move.from, to: move.to, started_at: at.started_at ?? null, finished_at: at.finished_at ?? null, updated_at: at.updated_at });
    return values && evalColumns.row(values);
  }

  results(evalId: string): EvalResultRow[] {
    return this.s.resultsOf.all({ eval_id: evalId }).map(evalResultColumns.row);
  }

  /** The eval's cases with no run yet, in order, at most `limit`. */
  unstarted(evalId: string, limit: number): EvalResultRow[] {
    return this.s.unstarted.all({ eval_id: evalId, limit }).map(evalResultColumns.row);
  }

  /** The case whose run this is, while it is not graded. */
  byRun(runId: string): EvalResultRow | undefined {
    const values = this.s.byRun.get({ run_id: runId });
    return values && evalResultColumns.row(values);
  }

  /** Every case whose run has started and is not graded, across evals. */
  ungraded(): EvalResultRow[] {
    return this.s.ungraded.all({}).map(evalResultColumns.row);
  }

  inFlight(): InFlight[] {
    return this.s.inFlight.all();
  }

  /** Cases of the eval not graded yet (pending or running). */
  pending(evalId: string): number {
    return this.s.pending.get({ eval_id: evalId }) ?? 0;
  }

  /** The case's run, recorded in the unit of work that made it; false when the case had a run or an outcome already. */
  linkRun(_uow: UnitOfWork, evalId: string, position: number, runId: string, at: string): boolean {
    return this.s.linkRun.run({ eval_id: evalId, position, run_id: runId, started_at: at }).changes > 0;
  }

  /** The grade of a case's run; false when it was graded already. */
  grade(_uow: UnitOfWork, evalId: string, position: number, grade: EvalGrade): boolean {
    return this.s.grade.run({ eval_id: evalId, position, ...grade }).changes > 0;
  }

  /** A case no run could be made for, and why; false when it had a run or an outcome already. */
  refuse(_uow: UnitOfWork, evalId: string, position: number, error: string, at: string): boolean {
    return this.s.refuse.run({ eval_id: evalId, position, error, ended_at: at }).changes > 0;
  }

  /** The eval's cases with no run yet end `skipped` (the eval was cancelled). */
  skipUnstarted(_uow: UnitOfWork, evalId: string, at: string): number {
    return this.s.skipUnstarted.run({ eval_id: evalId, ended_at: at }).changes;
  }
}

function insertAll(table: string, names: readonly string[]): string {
  return `INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map((n) => `@${n}`).join(', ')})`;
}

function raw(db: Db, sql: string): Database.Statement<Record<string, unknown>, unknown[]> {
  return db.prepare<Record<string, unknown>, unknown[]>(sql).raw();
}
