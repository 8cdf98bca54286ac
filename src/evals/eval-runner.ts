import { isoTime } from '../clock.js';
import { ErrandError, RateLimitError } from '../errors.js';
import type { Principal } from '../keys/keys-service.js';
import type { Resources } from '../resources.js';
import type { RunEnvelope } from '../runs/envelope.js';
import type { EvalVariant, RunLink } from '../runs/runs-service.js';
import type { CreateJobRunBody } from '../runs/run-schemas.js';
import type { EvalResultRow, EvalRow } from '../store/evals-store.js';
import type { RunRow } from '../store/runs-table.js';
import type { UnitOfWork } from '../store/unit-of-work.js';
import type { ModelAlias } from '../vocabulary/models.js';
import { isTerminal } from '../vocabulary/run-status.js';
import { compare, type SchemaChecks } from './compare.js';
import { isEnded } from './eval-lifecycle.js';
import type { EvalsService } from './evals-service.js';
import type { Expectation } from './matchers.js';

/** What the runner asks of runs: to make a case's run, and to read one that ended. */
export interface EvalRuns {
  createEvalRun(principal: Principal, jobId: string, body: CreateJobRunBody, variant: EvalVariant, link: RunLink): Promise<string>;
  envelope(row: RunRow): RunEnvelope;
}

export interface EvalRunnerOptions {
  runs: EvalRuns;
  /** The principal of the key an eval was made under, or null once it is revoked. */
  principalById: (keyId: string) => Principal | null;
  evals: EvalsService;
  schemas: SchemaChecks;
}

/** How long an organisation's evals wait after its pending runs were at limits.max_pending_runs, unless a run of it ends first. */
const PENDING_LIMIT_WAIT_MS = 5_000;

/** A case whose run was made meanwhile, or which the eval's cancellation skipped: its run is not made. */
class CaseTakenError extends Error {}

/**
 * Carries evals out: it makes each case's run as a normal run of the job (caps, limits and test mode hold, under the
 * eval's key), no more at once than the eval's max_parallel and, for all of an organisation's evals together,
 * evals.max_parallel, so that an eval leaves the rest of limits.max_concurrent_runs to the organisation's other
 * runs; it grades each run as it ends, and completes the eval once every case has an outcome.
 *
 * Everything it knows is in the store: a case's run is recorded in the unit of work that makes it, and its grade in
 * the one that completes the eval, so a daemon that stops mid-eval carries on where it was when it starts again
 * (`start` grades the runs that ended meanwhile). In memory are only the starts and grades in flight.
 */
export class EvalRunner {
  /** Cases whose run is being made, by `<eval>:<position>`, with their organisation. */
  private readonly starting = new Map<string, { evalId: string; orgId: string }>();
  /** Runs being graded. */
  private readonly grading = new Set<string>();
  /** Organisations at limits.max_pending_runs, until when their evals wait (unless one of their runs ends). */
  private readonly held = new Map<string, number>();
  private readonly work = new Set<Promise<void>>();
  private wakePending = false;
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;
  private closing: Promise<void> | null = null;

  constructor(
    private readonly r: Pick<Resources, 'store' | 'clock' | 'config' | 'events' | 'logger'>,
    private readonly o: EvalRunnerOptions,
  ) {}

  /** Listens for runs that end, grades those that ended while the daemon was down, and starts what it may. */
  start(): void {
    this.unsubscribe = this.r.events.on('wake.run_transitioned', ({ runId, orgId, to }) => {
      if (!isTerminal(to)) return;
      // One of the organisation's runs ended: it has room again under limits.max_pending_runs.
      this.held.delete(orgId);
      this.graded(runId);
      this.wake();
    });
    for (const c of this.r.store.evals.ungraded()) this.graded(c.run_id!);
    this.wake();
  }

  /** Looks for cases to start on the next turn (calls within one turn coalesce). */
  wake(): void {
    if (this.wakePending || this.closing !== null) return;
    this.wakePending = true;
    setImmediate(() => {
      this.wakePending = false;
      this.pump();
    });
  }

  /** Stops making runs and waits for the starts and grades in flight. Idempotent. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.unsubscribe?.();
      if (this.timer !== null) clearTimeout(this.timer);
      await Promise.allSettled([...this.work]);
    })();
    return this.closing;
  }

  private pump(): void {
    if (this.closing !== null) return;
    try {
      const now = this.r.clock.now();
      for (const [orgId, until] of this.held) if (until <= now) this.held.delete(orgId);
      const active = this.r.store.evals.active();
      if (active.length === 0) return;
      const perEval = new Map<string, number>();
      const perOrg = new Map<string, number>();
      const count = (evalId: string, orgId: string, n: number) => {
        perEval.set(evalId, (perEval.get(evalId) ?? 0) + n);
        perOrg.set(orgId, (perOrg.get(orgId) ?? 0) + n);
      };
      const orgOf = new Map(active.map((e) => [e.id, e.org_id]));
      for (const f of this.r.store.evals.inFlight()) {
        // A cancelled eval's runs still count until they have ended.
        const orgId = orgOf.get(f.eval_id) ?? this.r.store.evals.getEvalById(f.eval_id)?.org_id;
        if (orgId !== undefined) count(f.eval_id, orgId, f.count);
      }
      for (const s of this.starting.values()) count(s.evalId, s.orgId, 1);
      const orgBound = this.r.config['evals.max_parallel'];
      for (const e of active) {
        if (this.held.has(e.org_id)) continue;
        const room = Math.min(orgBound - (perOrg.get(e.org_id) ?? 0), e.max_parallel - (perEval.get(e.id) ?? 0));
        if (room <= 0) continue;
        const next = this.r.store.evals.unstarted(e.id, room + this.starting.size).filter((c) => !this.starting.has(key(c)));
        for (const c of next.slice(0, room)) {
          this.begin(e, c);
          count(e.id, e.org_id, 1);
        }
      }
    } catch (err) {
      this.r.logger.error({ err }, 'evals: could not look for cases to start');
    } finally {
      this.armTimer();
    }
  }

  /** Makes the case's run; a refusal (a cap, a bad input, a revoked key) is the case's error, a full queue a wait. */
  private begin(e: EvalRow, c: EvalResultRow): void {
    const k = key(c);
    this.starting.set(k, { evalId: e.id, orgId: e.org_id });
    this.track(async () => {
      try {
        const principal = this.o.principalById(e.key_id);
        if (principal === null) {
          this.refuse(c, `the API key the eval was made under (${e.key_id}) is revoked: no run is made under it`);
          return;
        }
        const body = { ...(JSON.parse(e.settings) as Record<string, unknown>), inputs: JSON.parse(c.inputs) as Record<string, unknown>, replay: e.replay } as CreateJobRunBody;
        const variant: EvalVariant = { prompt: e.prompt, model: e.model as ModelAlias | null };
        await this.o.runs.createEvalRun(principal, e.job_id, body, variant, (uow, runId) => this.link(uow, c, runId));
      } catch (err) {
        if (err instanceof CaseTakenError) return;
        if (err instanceof RateLimitError && err.code === 'too_many_concurrent_runs') {
          if (!this.held.has(e.org_id)) this.r.logger.info({ evalId: e.id, orgId: e.org_id }, 'an eval waits: its organisation has limits.max_pending_runs runs queued or running');
          this.held.set(e.org_id, this.r.clock.now() + PENDING_LIMIT_WAIT_MS);
          return;
        }
        if (err instanceof ErrandError) {
          this.refuse(c, `${err.code}${err.param === undefined ? '' : ` (${err.param})`}: ${err.message}`);
          return;
        }
        this.r.logger.error({ err, evalId: e.id, position: c.position }, "evals: a case's run could not be made");
        this.refuse(c, "internal_error: the case's run could not be made (the daemon's log says why)");
      } finally {
        this.starting.delete(k);
        this.wake();
      }
    });
  }

  /** In the unit of work that makes the run: the case is recorded as started, and its eval as running. */
  private link(uow: UnitOfWork, c: EvalResultRow, runId: string): void {
    const at = isoTime(this.r.clock.now());
    if (!this.r.store.evals.linkRun(uow, c.eval_id, c.position, runId, at)) throw new CaseTakenError();
    const e = this.r.store.evals.getEvalById(c.eval_id);
    if (e?.status === 'queued') this.o.evals.begin(uow, e);
  }

  private refuse(c: EvalResultRow, error: string): void {
    this.r.store.transaction((uow) => {
      if (this.r.store.evals.refuse(uow, c.eval_id, c.position, error, isoTime(this.r.clock.now()))) this.completeIfDone(uow, c.eval_id);
    });
  }

  /** Grades the case whose run this is, if it is an eval's and has ended. */
  private graded(runId: string): void {
    if (this.grading.has(runId) || this.closing !== null) return;
    const c = this.r.store.evals.byRun(runId);
    const run = c === undefined ? undefined : this.r.store.runs.getById(runId);
    if (c === undefined || run === undefined || !isTerminal(run.status)) return;
    this.grading.add(runId);
    this.track(async () => {
      try {
        const envelope = this.o.runs.envelope(run);
        const end = { status: run.status, result: envelope.result, failure_reason: envelope.failure_reason, failure_detail: envelope.failure_detail };
        const differences = await compare(JSON.parse(c.expect) as Expectation, end, this.o.schemas);
        this.r.store.transaction((uow) => {
          const graded = this.r.store.evals.grade(uow, c.eval_id, c.position, {
            outcome: differences.length === 0 ? 'passed' : 'failed',
            differences: JSON.stringify(differences),
            error: null,
            run_status: run.status,
            result: run.result,
            failure_reason: run.failure_reason,
            failure_detail: run.failure_detail,
            mode: run.mode,
            duration_ms: envelope.usage.duration_ms,
            input_tokens: envelope.usage.input_tokens,
            output_tokens: envelope.usage.output_tokens,
            cost_usd: envelope.usage.cost_usd,
            ended_at: run.finished_at,
          });
          if (graded) this.completeIfDone(uow, c.eval_id);
        });
      } catch (err) {
        this.r.logger.error({ err, runId, evalId: c.eval_id }, "evals: a case's run could not be graded");
      } finally {
        this.grading.delete(runId);
      }
    });
  }

  /** The eval completes with its last case's outcome, in that case's unit of work. */
  private completeIfDone(uow: UnitOfWork, evalId: string): void {
    if (this.r.store.evals.pending(evalId) > 0) return;
    const e = this.r.store.evals.getEvalById(evalId);
    if (e !== undefined && !isEnded(e.status)) this.o.evals.end(uow, e, 'completed');
  }

  private track(fn: () => Promise<void>): void {
    const p: Promise<void> = fn().finally(() => this.work.delete(p));
    this.work.add(p);
  }

  /** While an organisation waits out its pending runs, a look when its wait is over. */
  private armTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (this.closing !== null || this.held.size === 0) return;
    const next = Math.min(...this.held.values());
    this.timer = setTimeout(() => this.wake(), Math.max(0, next - this.r.clock.now()));
    this.timer.unref();
  }
}

function key(c: Pick<EvalResultRow, 'eval_id' | 'position'>): string {
  return `${c.eval_id}:${c.position}`;
}
