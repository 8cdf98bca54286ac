import { isoTime } from '../clock.js';
import { ConflictError, InvalidRequestError, NotFoundError } from '../errors.js';
import type { LinkSigner, SignedQuery } from '../artifacts/link-signer.js';
import type { EventAnnouncer } from '../event-log/event-announcer.js';
import type { SignedLinkQuery } from '../http-schemas/common.js';
import type { JobsService } from '../jobs/jobs-service.js';
import type { Principal } from '../keys/keys-service.js';
import { pageQuery, toListResponse, type ListResponse } from '../pagination.js';
import type { Resources } from '../resources.js';
import { IDEMPOTENCY_WINDOW_MS } from '../runs/idempotency-window.js';
import { requestHash } from '../runs/request-hash.js';
import type { UserSchemas } from '../runs/user-schemas.js';
import type { EvalRow, NewEvalResultRow } from '../store/evals-store.js';
import type { UnitOfWork } from '../store/unit-of-work.js';
import { evalLifecycle, isEnded } from './eval-lifecycle.js';
import { caseLabel, toEval, toEvalSummary } from './eval-record.js';
import type { EvalReportPage } from './eval-report.js';
import { MAX_CASES, type CreateEvalBody, type Eval, type EvalListQuery, type EvalSummary } from './eval-schemas.js';
import { checkExpectation } from './expectation-check.js';

/** Keys derived for eval reports sign nothing else (LinkSigner). */
export const EVAL_REPORT_LINK_PURPOSE = 'errand eval report links v1';

/** How many of a job's evals the report's chart shows, the newest last. */
export const CHART_EVALS = 20;

export interface EvalsServiceOptions {
  jobs: JobsService;
  schemas: UserSchemas;
  announcer: EventAnnouncer;
  signer: LinkSigner;
  /** Base of absolute links; a function because the port is known only once the daemon listens. */
  publicUrl: () => string;
  /** Refuses webhook targets the daemon must not call (400 with `param`). */
  checkCallbackUrl: (url: string, param: string) => Promise<void>;
  /** Refuses a sandbox host label no host has. */
  checkSandboxLabel: (label: string) => void;
  /** Stops the runs of a cancelled eval that are still under way (RunsService.cancel). */
  cancelRun: (orgId: string, runId: string) => void;
  report: EvalReportPage;
}

export interface CreatedEval {
  eval: Eval;
  /** True when an idempotency key matched an earlier request: `eval` is that eval. */
  replayed: boolean;
}

/**
 * Evals of a job (docs/api.md, Evaluations): made with their cases (inline, or the job's kept ones), read with their
 * cases, grades and the comparison with a baseline, cancelled, and shown as a report. The runner (eval-runner.ts)
 * carries them out.
 */
export class EvalsService {
  /** Told when an eval is made: the runner looks for runs to start. */
  private readonly created = new Set<() => void>();

  constructor(
    private readonly r: Pick<Resources, 'store' | 'clock' | 'ids' | 'config'>,
    private readonly o: EvalsServiceOptions,
  ) {}

  onCreated(listener: () => void): void {
    this.created.add(listener);
  }

  /** POST /v1/jobs/{id}/evals: checks everything that can refuse it, then keeps the eval queued with its cases. */
  async create(principal: Principal, jobId: string, body: CreateEvalBody): Promise<CreatedEval> {
    const { orgId } = principal;
    const job = this.o.jobs.row(orgId, jobId);
    const hash = body.idempotency_key === undefined ? null : requestHash(withoutIdempotencyKey(body));
    const prior = this.replayOf(orgId, jobId, body.idempotency_key, hash);
    if (prior !== undefined) return { eval: this.record(prior), replayed: true };

    const cases = body.cases === undefined ? this.keptCases(jobId) : body.cases.map((c) => ({ case_id: null, name: c.name ?? null, inputs: c.inputs ?? {}, expect: c.expect }));
    if (body.cases !== undefined) for (const [i, c] of body.cases.entries()) await checkExpectation(this.o.schemas, c.expect, `cases.${i}.expect`);
    refuseDuplicates(cases, body.cases !== undefined);
    const baseline = this.baselineOf(orgId, jobId, body.baseline_id);
    if (body.prompt !== undefined && body.replay === 'auto') {
      throw new InvalidRequestError('replay_needs_job_prompt', "replay: auto replays the job's recipe, recorded for the job's prompt: an eval with another prompt runs the agent (replay: off)", { param: 'replay' });
    }
    const maxParallel = this.maxParallelOf(body.max_parallel);
    await this.checkSettings(body.settings ?? {});

    const at = isoTime(this.r.clock.now());
    const row: EvalRow = {
      id: this.r.ids('eval'),
      org_id: orgId,
      job_id: job.id,
      key_id: principal.keyId,
      status: 'queued',
      replay: body.replay ?? (body.prompt === undefined ? job.replay : 'off'),
      model: body.model ?? job.model,
      prompt: body.prompt ?? null,
      settings: JSON.stringify(body.settings ?? {}),
      baseline_id: baseline,
      max_parallel: maxParallel,
      idempotency_key: body.idempotency_key ?? null,
      request_hash: hash,
      created_at: at,
      started_at: null,
      finished_at: null,
      updated_at: at,
    };
    const results: NewEvalResultRow[] = cases.map((c, position) => ({
      eval_id: row.id,
      position,
      case_id: c.case_id,
      name: c.name,
      inputs: JSON.stringify(c.inputs),
      expect: JSON.stringify(c.expect),
    }));
    // Looked for again in the transaction that would keep it: two requests with one key make one eval.
    const raced = this.r.store.transaction((uow) => {
      const first = this.replayOf(orgId, jobId, body.idempotency_key, hash);
      if (first === undefined) this.r.store.evals.insertEval(uow, row, results);
      return first;
    });
    if (raced !== undefined) return { eval: this.record(raced), replayed: true };
    for (const listener of this.created) listener();
    return { eval: this.record(row), replayed: false };
  }

  /** The eval's address in the API (the 202's Location). */
  url(id: string): string {
    return `${this.o.publicUrl()}/v1/evals/${id}`;
  }

  /** GET /v1/evals/{id} */
  get(orgId: string, id: string): Eval {
    return this.record(this.row(orgId, id));
  }

  /** GET /v1/jobs/{id}/evals: newest first, each with its totals. */
  list(orgId: string, jobId: string, q: EvalListQuery): ListResponse<EvalSummary> {
    this.o.jobs.row(orgId, jobId);
    return toListResponse(this.r.store.evals.listEvals(jobId, pageQuery(q)), (row) => toEvalSummary(row, this.r.store.evals.results(row.id)));
  }

  /**
   * POST /v1/evals/{id}/cancel: the eval ends `cancelled`, its cases without a run are skipped, and the runs still
   * under way are cancelled (each is graded as it ends, so that what it cost is counted). An ended eval is answered
   * as it is.
   */
  cancel(orgId: string, id: string): Eval {
    for (;;) {
      const row = this.row(orgId, id);
      if (isEnded(row.status)) return this.record(row);
      const cancelled = this.r.store.transaction((uow) => this.end(uow, row, 'cancelled'));
      if (cancelled === undefined) continue;
      for (const r of this.r.store.evals.results(id)) {
        if (r.run_id !== null && r.outcome === null) this.o.cancelRun(orgId, r.run_id);
      }
      return this.record(cancelled);
    }
  }

  /** The eval is running from its first case's run, made in this unit of work. */
  begin(uow: UnitOfWork, row: EvalRow): void {
    const at = isoTime(this.r.clock.now());
    this.r.store.evals.setStatus(uow, row.id, evalLifecycle.move(row.status, 'running'), { started_at: at, updated_at: at });
  }

  /**
   * Ends an eval that is still queued or running, in the caller's unit of work: `completed` once every case has an
   * outcome (the runner), `cancelled` by request. Announces it. Answers the row, or undefined when it had moved.
   */
  end(uow: UnitOfWork, row: EvalRow, to: 'completed' | 'cancelled'): EvalRow | undefined {
    const at = isoTime(this.r.clock.now());
    if (to === 'cancelled') this.r.store.evals.skipUnstarted(uow, row.id, at);
    const ended = this.r.store.evals.setStatus(uow, row.id, evalLifecycle.move(row.status, to), { finished_at: at, updated_at: at });
    if (ended === undefined) return undefined;
    const summary = toEvalSummary(ended, this.r.store.evals.results(ended.id));
    this.o.announcer.announce(uow, { type: to === 'completed' ? 'eval.completed' : 'eval.cancelled', orgId: ended.org_id, data: summary });
    return ended;
  }

  /** GET /v1/evals/{id}/report: the report page, to the holder of its signed link. */
  report(id: string, query: SignedLinkQuery): string {
    this.o.signer.verify(id, query, this.r.clock.now());
    const row = this.r.store.evals.getEvalById(id);
    if (row === undefined) throw new NotFoundError('eval', id);
    const job = this.r.store.jobs.get(row.org_id, row.job_id);
    const history = this.r.store.evals.listEvals(row.job_id, { limit: CHART_EVALS, cursor: null }).items.reverse();
    return this.o.report.render({
      eval: this.record(row),
      jobName: job?.name ?? row.job_id,
      history: history.map((h) => toEvalSummary(h, this.r.store.evals.results(h.id))),
    });
  }

  private row(orgId: string, id: string): EvalRow {
    const row = this.r.store.evals.getEval(orgId, id);
    if (row === undefined) throw new NotFoundError('eval', id);
    return row;
  }

  private record(row: EvalRow): Eval {
    const baseline = row.baseline_id === null || this.r.store.evals.getEvalById(row.baseline_id) === undefined ? null : this.r.store.evals.results(row.baseline_id);
    return toEval(row, this.r.store.evals.results(row.id), baseline, this.reportUrl(row.id));
  }

  private reportUrl(evalId: string): string {
    const q: SignedQuery = this.o.signer.queryFor(evalId, this.r.clock.now());
    return `${this.o.publicUrl()}/v1/evals/${evalId}/report?expires=${q.expires}&sig=${q.sig}`;
  }

  /** The eval an idempotency key made within 24 h; 409 when the key came with another body. */
  private replayOf(orgId: string, jobId: string, key: string | undefined, hash: string | null): EvalRow | undefined {
    if (key === undefined) return undefined;
    const since = isoTime(this.r.clock.now() - IDEMPOTENCY_WINDOW_MS);
    const prior = this.r.store.evals.findByIdempotencyKey(orgId, jobId, key, since);
    if (prior !== undefined && prior.request_hash !== hash) {
      throw new ConflictError('idempotency_key_reused', 'This idempotency_key was already used with a different request body', { param: 'idempotency_key' });
    }
    return prior;
  }

  private keptCases(jobId: string): EvalCaseSpec[] {
    const kept = this.r.store.evals.casesInOrder(jobId, MAX_CASES);
    if (kept.length === 0) {
      throw new InvalidRequestError('no_eval_cases', `Job '${jobId}' keeps no eval cases: give the eval its cases, or keep some with POST /v1/jobs/${jobId}/eval_cases`, { param: 'cases' });
    }
    return kept.map((c) => ({ case_id: c.id, name: c.name, inputs: JSON.parse(c.inputs) as Record<string, unknown>, expect: JSON.parse(c.expect) as EvalCaseSpec['expect'] }));
  }

  /** The baseline must be an eval of the same job. */
  private baselineOf(orgId: string, jobId: string, id: string | undefined): string | null {
    if (id === undefined) return null;
    const baseline = this.r.store.evals.getEval(orgId, id);
    if (baseline === undefined) throw new NotFoundError('eval', id, 'baseline_id');
    if (baseline.job_id !== jobId) {
      throw new InvalidRequestError('baseline_of_another_job', `baseline_id ${id} is an eval of job ${baseline.job_id}, not of ${jobId}: a baseline is compared case by case`, { param: 'baseline_id' });
    }
    return id;
  }

  private maxParallelOf(asked: number | undefined): number {
    const most = this.r.config['evals.max_parallel'];
    if (asked === undefined) return most;
    if (asked > most) {
      throw new InvalidRequestError('max_parallel_too_high', `max_parallel is ${asked}; at most ${most} (evals.max_parallel) of an organisation's eval runs may be queued or running at once`, {
        param: 'max_parallel',
      });
    }
    return asked;
  }

  /** What of the settings is the same for every case's run is checked once, here (the rest with each run). */
  private async checkSettings(settings: NonNullable<CreateEvalBody['settings']>): Promise<void> {
    if (settings.sandbox_label !== undefined) this.o.checkSandboxLabel(settings.sandbox_label);
    if (settings.output_schema !== undefined) await this.o.schemas.check(settings.output_schema, 'settings.output_schema', 'invalid_output_schema');
    if (settings.callback_url !== undefined) await this.o.checkCallbackUrl(settings.callback_url, 'settings.callback_url');
  }
}

interface EvalCaseSpec {
  case_id: string | null;
  name: string | null;
  inputs: Record<string, unknown>;
  expect: NonNullable<CreateEvalBody['cases']>[number]['expect'];
}

/** Cases are told apart by their labels (a name, or the inputs of a nameless case): two with one would be one in a comparison. */
function refuseDuplicates(cases: readonly EvalCaseSpec[], inline: boolean): void {
  const seen = new Map<string, number>();
  cases.forEach((c, i) => {
    const label = caseLabel(c.name, c.inputs);
    const first = seen.get(label);
    if (first !== undefined) {
      const param = inline ? `cases.${i}.${c.name === null ? 'inputs' : 'name'}` : 'cases';
      const what = c.name === null ? 'the inputs of' : 'the name of';
      throw new InvalidRequestError('duplicate_eval_case', `Case ${i} has ${what} case ${first} (${label}): each case needs a name, or inputs, of its own`, { param });
    }
    seen.set(label, i);
  });
}

function withoutIdempotencyKey(body: CreateEvalBody): object {
  const { idempotency_key: _key, ...rest } = body;
  return rest;
}

