import { billingHint, type BillingHint, type StartCost, type StartCostOf } from '../billing/estimate.js';
import type { SpendCaps, StartNeed } from '../billing/caps.js';
import type { PriceTable } from '../billing/prices.js';
import { isoTime } from '../clock.js';
import { DEFAULT_MODEL, type ModelAlias } from '../vocabulary/models.js';
import { ConflictError, NotFoundError, RateLimitError } from '../errors.js';
import type { JobsService } from '../jobs/jobs-service.js';
import type { Principal } from '../keys/keys-service.js';
import { pageQuery, toListResponse, type ListResponse } from '../pagination.js';
import type { ProjectsService } from '../projects/projects-service.js';
import type { EventAnnouncer } from '../event-log/event-announcer.js';
import type { Resources } from '../resources.js';
import { fromJson, toJson } from '../store/json-columns.js';
import type { NewRunRow, RunPatch, RunRow, RunSource } from '../store/runs-table.js';
import type { UnitOfWork } from '../store/unit-of-work.js';
import { toEnvelope, type RunEnvelope, type ScreenshotLinker } from './envelope.js';
import { checkInputs } from './input-check.js';
import { fillPlaceholders } from './placeholders.js';
import { IDEMPOTENCY_WINDOW_MS } from './idempotency-window.js';
import { requestHash } from './request-hash.js';
import type { CreateJobRunBody, CreateRunBody, RunListQuery } from './run-schemas.js';
import { runMoves, type RunMove } from './state-machine.js';
import { isTerminal, type RunStatus } from '../vocabulary/run-status.js';
import type { UserSchemas } from './user-schemas.js';
import type { RunChange, TransitionHook } from './run-change.js';

export interface RunAccepted {
  task_id: string;
  status: RunStatus;
  poll_url: string;
  billing: BillingHint;
}

export interface CreatedRun {
  body: RunAccepted;
  /** True when an idempotency key matched an earlier request: `body` describes that run. */
  replayed: boolean;
}

export interface RunsServiceOptions {
  /** Base of absolute links; a function because the port is known only once the daemon listens. */
  publicUrl: () => string;
  linkScreenshot: ScreenshotLinker;
  /** Refuses webhook targets the daemon must not call (400 with `param`). */
  checkCallbackUrl: (url: string, param: string) => Promise<void>;
  /**
   * Inside the unit of work of a terminal transition: the usage still owed by the attempt this daemon runs (its
   * sandbox time so far), written with the transition so that the terminal envelope is final.
   */
  settleUsage?: (runId: string) => RunPatch;
  /** What starting a run costs at most before its first model call can be made (the engine's bound, see FirstCallBound). */
  startCost: StartCostOf;
}

interface NewRun {
  orgId: string;
  keyId: string | null;
  monthlyCapUsd: number | null;
  source: RunSource;
  projectId: string;
  jobId: string | null;
  name: string | null;
  prompt: string;
  inputs: Record<string, unknown>;
  model: ModelAlias;
  outputSchema: Record<string, unknown> | null;
  callbackUrl: string | null;
  connections: string[];
  timeoutS: number;
  idempotency: { scope: string; key: string; hash: string } | null;
}

/** A run as a request describes it, before its inputs and schemas are checked. */
type RunSpec = Omit<NewRun, 'idempotency'> & {
  inputSchema: Record<string, unknown> | null;
  idempotencyKey: string | undefined;
  scope: string;
  body: { idempotency_key?: string };
};

export class RunsService {
  private readonly hooks: TransitionHook[] = [];
  /** The "API Runs" project of each organisation: created with it and never deleted, so it can be remembered. */
  private readonly defaultProjects = new Map<string, string>();

  constructor(
    private readonly r: Resources,
    private readonly deps: { projects: ProjectsService; jobs: JobsService; schemas: UserSchemas; caps: SpendCaps; prices: PriceTable; announcer: EventAnnouncer },
    private readonly options: RunsServiceOptions,
  ) {}

  private defaultProject(orgId: string): string {
    let id = this.defaultProjects.get(orgId);
    if (id === undefined) {
      id = this.r.store.projects.getDefault(orgId)!.id;
      this.defaultProjects.set(orgId, id);
    }
    return id;
  }

  addTransitionHook(hook: TransitionHook): void {
    this.hooks.push(hook);
  }

  /** POST /runs */
  async create(principal: Principal, body: CreateRunBody): Promise<CreatedRun> {
    const projectId = body.project_id ?? this.defaultProject(principal.orgId);
    if (body.project_id !== undefined) this.deps.projects.row(principal.orgId, body.project_id, 'project_id');
    return this.admit(
      this.prepare({
        orgId: principal.orgId,
        keyId: principal.keyId,
        monthlyCapUsd: principal.monthlyCapUsd,
        source: 'api',
        projectId,
        jobId: null,
        name: body.name ?? null,
        prompt: body.prompt,
        inputs: body.inputs ?? {},
        inputSchema: null,
        model: body.model ?? DEFAULT_MODEL,
        outputSchema: body.output_schema ?? null,
        callbackUrl: body.callback_url ?? null,
        connections: body.connections ?? [],
        timeoutS: body.timeout_s ?? this.r.config['limits.run_timeout_s'],
        idempotencyKey: body.idempotency_key,
        scope: 'runs',
        body,
      }),
    );
  }

  /** POST /jobs/{id}/runs */
  async createForJob(principal: Principal, jobId: string, body: CreateJobRunBody): Promise<CreatedRun> {
    return this.admit(this.prepareJobRun(principal.orgId, principal.keyId, principal.monthlyCapUsd, 'api', jobId, body, body.idempotency_key));
  }

  /** A firing of a job's schedule. The deterministic key makes a repeated firing return the first run. */
  async createScheduledRun(orgId: string, jobId: string, body: { inputs?: Record<string, unknown>; callback_url?: string }, idempotencyKey: string): Promise<CreatedRun> {
    return this.admit(this.prepareJobRun(orgId, null, null, 'schedule', jobId, body, idempotencyKey));
  }

  /**
   * POST /runs/{id}/rerun: a new run of what an earlier run was asked (its filled prompt, inputs, output_schema,
   * model, project, job, name, callback_url, connections and timeout), under the caller's key and its caps.
   */
  async rerun(principal: Principal, id: string): Promise<CreatedRun> {
    const run = this.row(principal.orgId, id);
    return this.admit({
      orgId: principal.orgId,
      keyId: principal.keyId,
      monthlyCapUsd: principal.monthlyCapUsd,
      source: 'api',
      projectId: run.project_id,
      jobId: run.job_id,
      name: run.name,
      prompt: run.prompt,
      inputs: fromJson<Record<string, unknown>>(run.inputs) ?? {},
      model: run.model,
      outputSchema: fromJson(run.output_schema),
      callbackUrl: run.callback_url,
      connections: fromJson<string[]>(run.connections) ?? [],
      timeoutS: run.timeout_s,
      idempotency: null,
    });
  }

  list(orgId: string, q: RunListQuery): ListResponse<RunEnvelope> {
    const page = this.r.store.runs.list(orgId, { ...pageQuery(q), jobId: q.job_id ?? null });
    return toListResponse(page, (row) => this.envelope(row));
  }

  get(orgId: string, id: string): RunEnvelope {
    return this.envelope(this.row(orgId, id));
  }

  row(orgId: string, id: string): RunRow {
    const row = this.r.store.runs.get(orgId, id);
    if (!row) throw new NotFoundError('run', id);
    return row;
  }

  envelope(row: RunRow): RunEnvelope {
    return toEnvelope(row, this.options.linkScreenshot, this.r.clock.now());
  }

  pollUrl(runId: string): string {
    return `${this.options.publicUrl()}/v1/runs/${runId}`;
  }

  /**
   * Cancels a queued or running run. Cancelling a cancelled run answers it again; a finished one is 409.
   * A running agent learns of it through the `run.transitioned` event and stops its sandbox.
   */
  cancel(orgId: string, id: string): RunEnvelope {
    for (;;) {
      const run = this.row(orgId, id);
      if (run.status === 'cancelled') return this.envelope(run);
      if (isTerminal(run.status)) {
        throw new ConflictError('run_not_cancellable', `Run ${id} already ended as ${run.status}; only queued or running runs can be cancelled`);
      }
      const move = runMoves.cancel({ runId: run.id, from: run.status, nowMs: this.r.clock.now() });
      const changed = this.r.store.transaction((uow) => this.apply(uow, move));
      if (changed) return this.envelope(changed);
      // The engine moved the run between our read and our write; look again.
    }
  }

  /**
   * The one way a run changes status or what it waits for: a named move of `runMoves` (state-machine.ts), applied
   * inside the caller's unit of work (its own transaction, or a group commit) as a compare-and-set on where the move
   * starts. A status move writes its event row and runs the transition hooks; `run.transitioned` is announced once
   * the unit has committed. pause and resume announce nothing: the status stays `running`, and a `run.status` from
   * running to running would tell consumers of a change that did not happen. Returns the updated row, or null when
   * the run was no longer where the move starts (or no longer leased by the move's worker).
   */
  apply(uow: UnitOfWork, move: RunMove): RunRow | null {
    const at = isoTime(this.r.clock.now());
    switch (move.kind) {
      case 'status': {
        const { from, to } = move.status;
        const settled = isTerminal(to) ? this.options.settleUsage?.(move.runId) : undefined;
        const after = this.r.store.runs.setStatus(uow, move.runId, move.status, { ...move.patch, ...settled, updated_at: at }, move.leaseOwner);
        if (!after) return null;
        this.recordChange(uow, { run: after, from, to }, move.description);
        return after;
      }
      case 'wait': {
        const after = this.r.store.runs.setWaiting(uow, move.runId, { during: move.during, waitingFor: move.waitingFor, leaseOwner: move.leaseOwner, updatedAt: at });
        if (!after) return null;
        uow.afterCommit(() => this.r.logger.info({ runId: move.runId }, move.description));
        return after;
      }
      default: {
        const never: never = move;
        throw new Error(`unknown run move ${JSON.stringify(never)}`);
      }
    }
  }

  /** The logged event, the hooks and the announcement of a status change (or of a creation, from null). */
  private recordChange(uow: UnitOfWork, change: RunChange, description: string): void {
    const { run, from, to } = change;
    this.deps.announcer.announce(uow, { type: 'run.status', orgId: run.org_id, runId: run.id, data: { run_id: run.id, from, to, description } });
    for (const hook of this.hooks) hook(change, uow);
    uow.afterCommit(() => this.r.events.emit('run.transitioned', { runId: run.id, orgId: run.org_id, from, to }));
  }

  private prepareJobRun(
    orgId: string,
    keyId: string | null,
    monthlyCapUsd: number | null,
    source: 'api' | 'schedule',
    jobId: string,
    body: CreateJobRunBody,
    idempotencyKey: string | undefined,
  ): NewRun | Promise<NewRun> {
    const job = this.deps.jobs.row(orgId, jobId);
    return this.prepare({
      orgId,
      keyId,
      monthlyCapUsd,
      source,
      projectId: job.project_id,
      jobId: job.id,
      name: body.name ?? job.name,
      prompt: job.prompt,
      inputs: body.inputs ?? {},
      inputSchema: fromJson(job.input_schema),
      model: job.model as ModelAlias,
      outputSchema: body.output_schema ?? fromJson(job.output_schema),
      callbackUrl: body.callback_url ?? null,
      connections: [...new Set([...(fromJson<string[]>(job.connections) ?? []), ...(body.connections ?? [])])],
      timeoutS: body.timeout_s ?? job.timeout_s ?? this.r.config['limits.run_timeout_s'],
      idempotencyKey,
      // Firings have their own scope, so no API caller's idempotency_key can claim a future firing's key.
      scope: source === 'schedule' ? `schedule:${job.id}` : `job:${job.id}`,
      body,
    });
  }

  /**
   * Everything that can refuse a request without touching the database or the network. Callers' schemas are
   * compiled and checked in the schema worker (see UserSchemas): a run without any answers at once.
   */
  private prepare(spec: RunSpec): NewRun | Promise<NewRun> {
    if (spec.inputSchema === null && spec.outputSchema === null) return this.newRun(spec, fillPlaceholders(spec.prompt, spec.inputs));
    return this.checkSchemas(spec).then((prompt) => this.newRun(spec, prompt));
  }

  /** The inputs against the input_schema and the placeholders, then the output_schema; answers the filled prompt. */
  private async checkSchemas(spec: RunSpec): Promise<string> {
    const prompt = await checkInputs(this.deps.schemas, { prompt: spec.prompt, inputSchema: spec.inputSchema, inputs: spec.inputs });
    if (spec.outputSchema) await this.deps.schemas.check(spec.outputSchema, 'output_schema');
    return prompt;
  }

  private newRun(spec: RunSpec, prompt: string): NewRun {
    return {
      orgId: spec.orgId,
      keyId: spec.keyId,
      monthlyCapUsd: spec.monthlyCapUsd,
      source: spec.source,
      projectId: spec.projectId,
      jobId: spec.jobId,
      name: spec.name,
      prompt,
      inputs: spec.inputs,
      model: spec.model,
      outputSchema: spec.outputSchema,
      callbackUrl: spec.callbackUrl,
      connections: spec.connections,
      timeoutS: spec.timeoutS,
      idempotency: spec.idempotencyKey === undefined ? null : { scope: spec.scope, key: spec.idempotencyKey, hash: requestHash(withoutIdempotencyKey(spec.body)) },
    };
  }

  /** The callback target is checked last, and only when there is one: it is a DNS lookup. */
  private admit(prepared: NewRun | Promise<NewRun>): Promise<CreatedRun> {
    if (prepared instanceof Promise) return prepared.then((run) => this.admit(run));
    const run = prepared;
    if (!run.callbackUrl) return this.accept(run);
    return this.options.checkCallbackUrl(run.callbackUrl, 'callback_url').then(() => this.accept(run));
  }

  /** Writes the run, or answers the earlier run of the same idempotency key; caps and limits checked in the same transaction. */
  private async accept(n: NewRun): Promise<CreatedRun> {
    const { store, config } = this.r;
    const nowMs = this.r.clock.now();
    const hint = billingHint(this.deps.prices, n.model, n.timeoutS, n.monthlyCapUsd);
    const need = startNeed(n, hint, this.options.startCost(n.model, n.prompt, n.outputSchema));
    return store.groupTransaction((uow): CreatedRun => {
      if (n.idempotency) {
        const prior = store.idempotency.find(n.orgId, n.idempotency.scope, n.idempotency.key, nowMs - IDEMPOTENCY_WINDOW_MS);
        if (prior) {
          if (prior.request_hash !== n.idempotency.hash) {
            throw new ConflictError('idempotency_key_reused', 'This idempotency_key was already used with a different request body', {
              param: 'idempotency_key',
            });
          }
          const run = store.runs.getById(prior.run_id)!;
          const priorHint = billingHint(this.deps.prices, run.model, run.timeout_s, n.monthlyCapUsd);
          return { body: { task_id: run.id, status: run.status, poll_url: this.pollUrl(run.id), billing: priorHint }, replayed: true };
        }
      }
      this.deps.caps.assertCanStart(n.orgId, n.keyId, need);
      const active = store.runs.countActive(n.orgId);
      if (active >= config['limits.max_pending_runs']) {
        throw new RateLimitError(
          'too_many_concurrent_runs',
          `The organisation already has ${active} queued or running runs (limits.max_pending_runs is ${config['limits.max_pending_runs']}); retry when some finish`,
          5,
        );
      }
      const at = isoTime(nowMs);
      const id = this.r.ids('run');
      const row: NewRunRow = {
        id,
        org_id: n.orgId,
        key_id: n.keyId,
        project_id: n.projectId,
        job_id: n.jobId,
        name: n.name,
        source: n.source,
        prompt: n.prompt,
        inputs: JSON.stringify(n.inputs),
        model: n.model,
        output_schema: toJson(n.outputSchema),
        callback_url: n.callbackUrl,
        connections: JSON.stringify(n.connections),
        timeout_s: n.timeoutS,
        status: 'queued',
        created_at: at,
        updated_at: at,
      };
      const run = store.runs.insert(uow, row);
      this.recordChange(uow, { run, from: null, to: 'queued' }, n.source === 'schedule' ? 'queued by its schedule' : 'accepted');
      if (n.idempotency) {
        store.idempotency.put({ org_id: n.orgId, scope: n.idempotency.scope, key: n.idempotency.key, request_hash: n.idempotency.hash, run_id: id, created_at: nowMs });
      }
      return { body: { task_id: id, status: 'queued', poll_url: this.pollUrl(id), billing: hint }, replayed: false };
    });
  }
}

/**
 * What must be left under the caps for a run to be accepted (#10): enough for the run to make its first model call
 * (what the engine holds before it, plus the sandbox time before it), and at least the cost of a short run.
 */
function startNeed(n: NewRun, hint: BillingHint, start: StartCost): StartNeed {
  if (hint.estimated_cost_usd.low > start.usd) return { usd: hint.estimated_cost_usd.low, what: () => `a short run on ${n.model} costs (the billing hint's estimated_cost_usd.low)` };
  return {
    usd: start.usd,
    what: () =>
      `a run on ${n.model} needs before it can make its first model call: the most that call can cost (about ${start.inputTokens} input tokens ` +
      `for its prompt, output_schema and tools, and up to ${start.outputTokens} output tokens, models.max_tokens) and ${start.sandboxSeconds} s of sandbox time`,
  };
}

/** The body as it is hashed for idempotency: the key itself is not part of what must match. */
function withoutIdempotencyKey(body: { idempotency_key?: string }): object {
  const { idempotency_key: _key, ...rest } = body;
  return rest;
}
