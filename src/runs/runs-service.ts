import { OrgModes } from '../orgs/org-modes.js';
import { billingHint, type BillingHint, type StartCost, type StartCostOf } from '../billing/estimate.js';
import type { Budget, SpendCaps, StartNeed } from '../billing/caps.js';
import type { PriceTable } from '../billing/prices.js';
import { isoTime } from '../clock.js';
import { DEFAULT_MODEL, type ModelAlias } from '../vocabulary/models.js';
import { ConflictError, InvalidRequestError, NotFoundError, RateLimitError } from '../errors.js';
import type { JobsService } from '../jobs/jobs-service.js';
import type { Principal } from '../keys/keys-service.js';
import { pageQuery, toListResponse, type ListResponse } from '../pagination.js';
import type { ProjectsService } from '../projects/projects-service.js';
import type { EventAnnouncer } from '../event-log/event-announcer.js';
import type { RunProblem, RunScope } from './run-problems.js';
import type { Resources } from '../resources.js';
import { fromJson } from '../store/json-columns.js';
import type { NewRunRow, RunPatch, RunReplay, RunRow, RunSource } from '../store/runs-table.js';
import type { Store } from '../store/store.js';
import type { UnitOfWork } from '../store/unit-of-work.js';
import { toEnvelope, type RunEnvelope, type ScreenshotLinker } from './envelope.js';
import { checkInputs } from './input-check.js';
import { fillPlaceholders } from './placeholders.js';
import { IDEMPOTENCY_WINDOW_MS } from './idempotency-window.js';
import { requestHash } from './request-hash.js';
import type { CreateJobRunBody, CreateRunBody, RunListQuery } from './run-schemas.js';
import { checkActionSpace } from './action-space-check.js';
import { jobRunDefaults, promptRunDefaults, resolveRunOptions, runOptionColumns, runOptionsOfRow, type RunOptions } from './run-options.js';
import { runMoves, type RunMove } from './state-machine.js';
import type { RunOutcome } from './run-outcome.js';
import { isTerminal, type RunStatus } from '../vocabulary/run-status.js';
import type { UserSchemas } from './user-schemas.js';
import type { RunChange, TransitionHook } from './run-change.js';
import type { LiveUrlOf } from './waiting-for.js';
import type { RunFile } from '../run-files/run-files-service.js';

/**
 * Something the caller should know about a run it was allowed to start (issue 21, item 14): a reason it will fail at
 * once as things stand (no model provider, a connection it names that cannot be used), or an estimate above what
 * is left under a cap. Refusals are 4xx instead; these do not stop the run from being created.
 */
export interface RunWarning {
  code: 'no_model_provider' | 'connection_unusable' | 'estimate_exceeds_cap';
  message: string;
  param: string | null;
}

export interface RunAccepted {
  task_id: string;
  status: RunStatus;
  poll_url: string;
  billing: BillingHint;
  /** For a replay, as they stand now while the run is queued (like its status), and none once it has started. */
  warnings: RunWarning[];
}

/** POST /runs/check: what POST /runs would answer for the same body, without creating anything. */
export interface RunCheck {
  object: 'run_check';
  /** The run an idempotency key would replay, or null when a new run would be created. */
  replay_of: string | null;
  billing: BillingHint;
  warnings: RunWarning[];
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
  /** A run's files with their signed links (src/run-files/run-files-service.ts): the envelope's `files`. */
  filesOf?: (row: RunRow) => RunFile[];
  /** Refuses a sandbox host label no host has (400 unknown_sandbox_label; issue 26). */
  checkSandboxLabel: (label: string) => void;
}

/**
 * What runs ask of the engine that carries them out, which plugs itself in (`useEngine`): the engine is built on top
 * of runs, as every feature is (docs/architecture.md, "Each part builds itself").
 */
export interface RunEngine {
  /** What starting a run costs at most before its first model call can be made (the engine's bound, see FirstCallBound). */
  startCost: StartCostOf;
  /** Why a run in this scope would fail at once as things stand (the engine's precheck, see run-problems.ts). */
  runProblems: (run: RunScope) => RunProblem[];
  /**
   * Inside the unit of work of a terminal transition: the usage still owed by the attempt this daemon runs (its
   * sandbox time so far), written with the transition so that the terminal envelope is final.
   */
  settleUsage: (runId: string) => RunPatch;
}

/** What an eval's runs take instead of their job's (src/evals/): null keeps the job's. */
export interface EvalVariant {
  prompt: string | null;
  model: ModelAlias | null;
}

/** Written in the unit of work that inserts a run: whatever records the run where it was asked for (an eval's case). */
export type RunLink = (uow: UnitOfWork, runId: string) => void;

/** What a request carries for its run besides its body: the caller's trace context (a header). */
export interface RequestContext {
  traceparent: string | null;
}
const NO_CONTEXT: RequestContext = { traceparent: null };

/** Who a run is made for: a key's id and what it carries for runs, or no key (a schedule's firing). */
type Caller = Pick<Principal, 'monthlyCapUsd' | 'maxRunCostUsd'> & { keyId: string | null };
const NO_KEY: Caller = { keyId: null, monthlyCapUsd: null, maxRunCostUsd: null };

interface NewRun {
  orgId: string;
  keyId: string | null;
  monthlyCapUsd: number | null;
  /** Whose max_cost_usd the run has, for the 400 that refuses one too low: "its own", "its job's", "its API key's default". */
  maxCostOrigin: string;
  /** The caller's W3C traceparent, checked: the run's trace is its child. */
  traceparent: string | null;
  source: RunSource;
  projectId: string;
  jobId: string | null;
  prompt: string;
  model: ModelAlias;
  /** Whether it replays its job's recipe (issue 24): its request's `replay`, else its job's; 'off' without a job. */
  replay: RunReplay;
  /** What it was asked, over its job's and the daemon's defaults (run-options.ts). */
  options: RunOptions;
  idempotency: { scope: string; key: string; hash: string } | null;
  link?: RunLink;
}

/** A run as a request describes it, before its inputs and schemas are checked. */
type RunSpec = Omit<NewRun, 'idempotency'> & {
  inputSchema: Record<string, unknown> | null;
  idempotencyKey: string | undefined;
  scope: string;
  body: { idempotency_key?: string };
};

/** What admitting a run came to: the earlier run of its idempotency key, or a new run (none written for a check). */
type Admission =
  | { kind: 'replay'; run: RunRow; billing: BillingHint; warnings: RunWarning[] }
  | { kind: 'new'; runId: string | null; billing: BillingHint; warnings: RunWarning[] };

export class RunsService {
  private readonly hooks: TransitionHook[] = [];
  private engine: RunEngine | null = null;
  /** The live view's link of a running run (src/live/live-links.ts): `live_url` in GET /v1/runs/{id}, and `waiting_for.live_url`. */
  private liveUrlOf: LiveUrlOf | undefined;
  /** The "API Runs" project of each organisation: created with it and never deleted, so it can be remembered. */
  private readonly defaultProjects = new Map<string, string>();
  /** Organisations' modes: a run's envelope says whether it is of test mode (issue 25). */
  private readonly modes: OrgModes;

  constructor(
    private readonly r: Resources,
    private readonly deps: { projects: ProjectsService; jobs: JobsService; schemas: UserSchemas; caps: SpendCaps; prices: PriceTable; announcer: EventAnnouncer },
    private readonly options: RunsServiceOptions,
  ) {
    this.modes = new OrgModes(r.store.orgs);
  }

  /** The engine plugs itself in, once, before the daemon takes requests. */
  useEngine(engine: RunEngine): void {
    if (this.engine !== null) throw new Error('an engine is plugged into runs already');
    this.engine = engine;
  }

  /** The live view plugs in its links, once: running runs' envelopes carry `live_url`. */
  useLiveLinks(liveUrlOf: LiveUrlOf): void {
    this.liveUrlOf = liveUrlOf;
  }

  /** A running run's live view (once the live view plugged in its links), or null. */
  liveUrl(orgId: string, runId: string): string | null {
    return this.liveUrlOf?.(orgId, runId) ?? null;
  }

  private plugged(): RunEngine {
    if (this.engine === null) throw new Error('no engine is plugged into runs: the daemon is still being built');
    return this.engine;
  }

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

  /** POST /runs; `traceparent`: the request's header, checked (tracing/run-trace-ids.ts). */
  async create(principal: Principal, body: CreateRunBody, context: RequestContext = NO_CONTEXT): Promise<CreatedRun> {
    return this.created(await this.admit(this.prepare({ ...this.runSpec(principal, body), traceparent: context.traceparent }), 'write'));
  }

  /** POST /runs/check: the same checks, refusals and warnings as POST /runs, and nothing written. */
  async check(principal: Principal, body: CreateRunBody): Promise<RunCheck> {
    return checked(await this.admit(this.prepare(this.runSpec(principal, body)), 'check'));
  }

  /** POST /jobs/{id}/runs */
  async createForJob(principal: Principal, jobId: string, body: CreateJobRunBody, context: RequestContext = NO_CONTEXT): Promise<CreatedRun> {
    return this.created(await this.admit(this.prepareJobRun(principal.orgId, principal, 'api', jobId, body, body.idempotency_key, undefined, context), 'write'));
  }

  /** POST /jobs/{id}/runs/check */
  async checkForJob(principal: Principal, jobId: string, body: CreateJobRunBody): Promise<RunCheck> {
    return checked(await this.admit(this.prepareJobRun(principal.orgId, principal, 'api', jobId, body, body.idempotency_key), 'check'));
  }

  /**
   * A run of an eval's case (src/evals/): a run of the job as POST /jobs/{id}/runs makes it (the same checks, caps and
   * limits, under the eval's key), with the eval's prompt and model when it names them, and `link` written in the
   * unit of work that inserts it, so that the case and its run are recorded together or not at all. Answers its id.
   */
  async createEvalRun(principal: Principal, jobId: string, body: CreateJobRunBody, variant: EvalVariant, link: RunLink): Promise<string> {
    const prepared = this.prepareJobRun(principal.orgId, principal, 'eval', jobId, body, undefined, variant);
    const admitted = await this.admit(prepared instanceof Promise ? prepared.then((run) => ({ ...run, link })) : { ...prepared, link }, 'write');
    return this.created(admitted).body.task_id;
  }

  /** A firing of a job's schedule. The deterministic key makes a repeated firing return the first run. */
  async createScheduledRun(orgId: string, jobId: string, body: { inputs?: Record<string, unknown>; callback_url?: string }, idempotencyKey: string): Promise<CreatedRun> {
    return this.created(await this.admit(this.prepareJobRun(orgId, NO_KEY, 'schedule', jobId, body, idempotencyKey), 'write'));
  }

  /**
   * POST /runs/{id}/rerun: a new run of what an earlier run was asked (its filled prompt, inputs, output_schema,
   * model, project, job, name, callback_url, connections and timeout), under the caller's key and its caps.
   */
  async rerun(principal: Principal, id: string): Promise<CreatedRun> {
    const run = this.row(principal.orgId, id);
    checkActionSpace(this.r.config, run.model, run.action_space);
    return this.created(await this.admit({
      orgId: principal.orgId,
      keyId: principal.keyId,
      monthlyCapUsd: principal.monthlyCapUsd,
      maxCostOrigin: "the earlier run's",
      traceparent: null,
      source: 'api',
      projectId: run.project_id,
      jobId: run.job_id,
      prompt: run.prompt,
      model: run.model,
      replay: run.replay,
      options: runOptionsOfRow(run, this.r.store.files.inputIdsOf(run.id)),
      idempotency: null,
    }, 'write'));
  }

  list(orgId: string, q: RunListQuery): ListResponse<RunEnvelope> {
    const page = this.r.store.runs.list(orgId, { ...pageQuery(q), jobId: q.job_id ?? null });
    return toListResponse(page, (row) => this.envelope(row));
  }

  /** The run's envelope with its live link while it runs: what polling a run answers. */
  get(orgId: string, id: string): RunEnvelope {
    const row = this.row(orgId, id);
    const envelope = this.envelope(row);
    if (row.status === 'running' && this.liveUrlOf !== undefined) envelope.live_url = this.liveUrlOf(row.org_id, row.id);
    return envelope;
  }

  row(orgId: string, id: string): RunRow {
    const row = this.r.store.runs.get(orgId, id);
    if (!row) throw new NotFoundError('run', id);
    return row;
  }

  envelope(row: RunRow): RunEnvelope {
    return toEnvelope(row, this.modes.livemode(row.org_id), this.options.linkScreenshot, this.r.clock.now(), this.liveUrlOf, this.options.filesOf?.(row));
  }

  pollUrl(runId: string): string {
    return `${this.options.publicUrl()}/v1/runs/${runId}`;
  }

  /**
   * Cancels a queued or running run. Cancelling a cancelled run answers it again; a finished one is 409.
   * A running agent learns of it through the `wake.run_transitioned` event and stops its sandbox.
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
   * Ends a running run with an attempt's outcome (a live or a test-mode attempt's), committed with the other writes of
   * the same turn: runs that fail on a precheck end many at a time. Nothing happens when the run is no longer running
   * (cancelled meanwhile: terminal states never change), or when the attempt's worker lost its lease and another
   * attempt owns the run now: a stale attempt must not end the new one.
   */
  async endAttempt(run: RunRow, outcome: RunOutcome): Promise<void> {
    const ending = { runId: run.id, nowMs: this.r.clock.now(), leaseOwner: run.lease_owner };
    const move = outcome.status === 'succeeded' ? runMoves.finish({ ...ending, outcome }) : runMoves.fail({ ...ending, outcome });
    await this.r.store.groupTransaction((uow) => this.apply(uow, move));
  }

  /**
   * The one way a run changes status or what it waits for: a named move of `runMoves` (state-machine.ts), applied
   * inside the caller's unit of work (its own transaction, or a group commit) as a compare-and-set on where the move
   * starts. A status move writes its event row and runs the transition hooks; `wake.run_transitioned` is announced once
   * the unit has committed. pause and resume announce nothing: the status stays `running`, and a `run.status` from
   * running to running would tell consumers of a change that did not happen. Returns the updated row, or null when
   * the run was no longer where the move starts (or no longer leased by the move's worker).
   */
  apply(uow: UnitOfWork, move: RunMove): RunRow | null {
    const at = isoTime(this.r.clock.now());
    switch (move.kind) {
      case 'status': {
        const { from, to } = move.status;
        const settled = isTerminal(to) ? this.engine?.settleUsage(move.runId) : undefined;
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
    uow.afterCommit(() => this.r.events.emit('wake.run_transitioned', { runId: run.id, orgId: run.org_id, from, to }));
  }

  /** A POST /runs body as a run: the default project unless it names one of the organisation's. */
  private runSpec(principal: Principal, body: CreateRunBody): RunSpec {
    const projectId = body.project_id ?? this.defaultProject(principal.orgId);
    if (body.project_id !== undefined) this.deps.projects.row(principal.orgId, body.project_id, 'project_id');
    return {
      orgId: principal.orgId,
      keyId: principal.keyId,
      monthlyCapUsd: principal.monthlyCapUsd,
      maxCostOrigin: body.max_cost_usd !== undefined ? 'its own' : "its API key's default (max_run_cost_usd)",
      traceparent: null,
      source: 'api',
      projectId,
      jobId: null,
      prompt: body.prompt,
      inputSchema: null,
      model: body.model ?? DEFAULT_MODEL,
      replay: 'off',
      options: resolveRunOptions(body, promptRunDefaults({ runTimeoutS: this.r.config['limits.run_timeout_s'], maxCostUsd: principal.maxRunCostUsd })),
      idempotencyKey: body.idempotency_key,
      scope: 'runs',
      body,
    };
  }

  private prepareJobRun(
    orgId: string,
    caller: Caller,
    source: RunSource,
    jobId: string,
    body: CreateJobRunBody,
    idempotencyKey: string | undefined,
    variant: EvalVariant = { prompt: null, model: null },
    context: RequestContext = NO_CONTEXT,
  ): NewRun | Promise<NewRun> {
    const job = this.deps.jobs.row(orgId, jobId);
    const maxCostOrigin =
      body.max_cost_usd !== undefined ? 'its own' : job.max_cost_usd !== null ? "its job's" : "its API key's default (max_run_cost_usd)";
    return this.prepare({
      orgId,
      keyId: caller.keyId,
      monthlyCapUsd: caller.monthlyCapUsd,
      maxCostOrigin,
      traceparent: context.traceparent,
      source,
      projectId: job.project_id,
      jobId: job.id,
      prompt: variant.prompt ?? job.prompt,
      inputSchema: fromJson(job.input_schema),
      model: variant.model ?? (job.model as ModelAlias),
      replay: body.replay ?? job.replay,
      options: resolveRunOptions(body, jobRunDefaults(job, { runTimeoutS: this.r.config['limits.run_timeout_s'], maxCostUsd: caller.maxRunCostUsd })),
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
    const { options } = spec;
    if (options.sandboxLabel !== null) this.options.checkSandboxLabel(options.sandboxLabel);
    checkActionSpace(this.r.config, spec.model, options.actionSpace);
    if (spec.inputSchema === null && options.outputSchema === null) return this.newRun(spec, fillPlaceholders(spec.prompt, options.inputs));
    return this.checkSchemas(spec).then((prompt) => this.newRun(spec, prompt));
  }

  /** The inputs against the input_schema and the placeholders, then the output_schema; answers the filled prompt. */
  private async checkSchemas(spec: RunSpec): Promise<string> {
    const prompt = await checkInputs(this.deps.schemas, { prompt: spec.prompt, inputSchema: spec.inputSchema, inputs: spec.options.inputs });
    if (spec.options.outputSchema) await this.deps.schemas.check(spec.options.outputSchema, 'output_schema');
    return prompt;
  }

  private newRun(spec: RunSpec, prompt: string): NewRun {
    return {
      orgId: spec.orgId,
      keyId: spec.keyId,
      monthlyCapUsd: spec.monthlyCapUsd,
      maxCostOrigin: spec.maxCostOrigin,
      traceparent: spec.traceparent,
      source: spec.source,
      projectId: spec.projectId,
      jobId: spec.jobId,
      prompt,
      model: spec.model,
      replay: spec.replay,
      options: spec.options,
      idempotency: spec.idempotencyKey === undefined ? null : { scope: spec.scope, key: spec.idempotencyKey, hash: requestHash(withoutIdempotencyKey(spec.body)) },
    };
  }

  /**
   * The callback target is checked last, and only when there is one: it is a DNS lookup. `check` runs every check
   * and writes nothing (POST /runs/check).
   */
  private admit(prepared: NewRun | Promise<NewRun>, mode: 'write' | 'check'): Promise<Admission> {
    if (prepared instanceof Promise) return prepared.then((run) => this.admit(run, mode));
    const run = prepared;
    const { callbackUrl } = run.options;
    if (!callbackUrl) return this.accept(run, mode);
    return this.options.checkCallbackUrl(callbackUrl, 'callback_url').then(() => this.accept(run, mode));
  }

  /** Writes the run, or answers the earlier run of the same idempotency key; caps and limits checked in the same transaction. */
  private async accept(n: NewRun, mode: 'write' | 'check'): Promise<Admission> {
    const { store, config } = this.r;
    const nowMs = this.r.clock.now();
    const o = n.options;
    const hint = billingHint(this.deps.prices, n.model, o.timeoutS, n.monthlyCapUsd);
    const start = this.plugged().startCost(n.model, n.prompt, o.outputSchema);
    checkMaxCost(n, start);
    const need = startNeed(n, hint, start);
    const problems = this.plugged().runProblems({ orgId: n.orgId, projectId: n.projectId, connections: o.connections, proxy: o.proxy });
    return store.groupTransaction((uow): Admission => {
      if (n.idempotency) {
        const prior = store.idempotency.find(n.orgId, n.idempotency.scope, n.idempotency.key, nowMs - IDEMPOTENCY_WINDOW_MS);
        if (prior) {
          if (prior.request_hash !== n.idempotency.hash) {
            throw new ConflictError('idempotency_key_reused', 'This idempotency_key was already used with a different request body', {
              param: 'idempotency_key',
            });
          }
          const run = store.runs.getById(prior.run_id)!;
          const billing = billingHint(this.deps.prices, run.model, run.timeout_s, n.monthlyCapUsd);
          // As they stand now, like its status; a run that has started has nothing left to warn of.
          const warnings = run.status === 'queued' ? runWarnings(problems, billing, this.deps.caps.budget(n.orgId, n.keyId)) : [];
          return { kind: 'replay', run, billing, warnings };
        }
      }
      const budget = this.deps.caps.assertCanStart(n.orgId, n.keyId, need);
      const active = store.runs.countActive(n.orgId);
      if (active >= config['limits.max_pending_runs']) {
        throw new RateLimitError(
          'too_many_concurrent_runs',
          `The organisation already has ${active} queued or running runs (limits.max_pending_runs is ${config['limits.max_pending_runs']}); retry when some finish`,
          5,
        );
      }
      const warnings = runWarnings(problems, hint, budget);
      checkInputFiles(store, n.orgId, o.inputFiles);
      if (mode === 'check') return { kind: 'new', runId: null, billing: hint, warnings };
      const at = isoTime(nowMs);
      const id = this.r.ids('run');
      // The options' columns are assigned onto the literal: a row spread from them cost POST /v1/runs twice its CPU.
      const row: NewRunRow = Object.assign(
        {
          id,
          org_id: n.orgId,
          key_id: n.keyId,
          project_id: n.projectId,
          job_id: n.jobId,
          source: n.source,
          prompt: n.prompt,
          model: n.model,
          replay: n.replay,
          traceparent: n.traceparent,
          status: 'queued' as const,
          created_at: at,
          updated_at: at,
        },
        runOptionColumns(o),
      );
      const run = store.runs.insert(uow, row);
      if (o.inputFiles.length > 0) store.files.addRunInputs(uow, id, o.inputFiles);
      n.link?.(uow, id);
      this.recordChange(uow, { run, from: null, to: 'queued' }, QUEUED_BY[n.source]);
      if (n.idempotency) {
        store.idempotency.put({ org_id: n.orgId, scope: n.idempotency.scope, key: n.idempotency.key, request_hash: n.idempotency.hash, run_id: id, created_at: nowMs });
      }
      return { kind: 'new', runId: id, billing: hint, warnings };
    });
  }

  /** The 202 body of an admitted run. */
  private created(a: Admission): CreatedRun {
    if (a.kind === 'replay') return { body: { task_id: a.run.id, status: a.run.status, poll_url: this.pollUrl(a.run.id), billing: a.billing, warnings: a.warnings }, replayed: true };
    if (a.runId === null) throw new Error('a checked run was answered as created');
    return { body: { task_id: a.runId, status: 'queued', poll_url: this.pollUrl(a.runId), billing: a.billing, warnings: a.warnings }, replayed: false };
  }
}

/** The first line of a run's history, by who started it. */
const QUEUED_BY: Record<RunSource, string> = { api: 'accepted', schedule: 'queued by its schedule', eval: 'queued by an eval of its job' };

/**
 * The run's input files are the organisation's (another's id is a 404, as for a project), and no two have one name:
 * both would be /workspace/in/<name>. Read in the run's unit of work, so that a file deleted meanwhile is not taken.
 */
function checkInputFiles(store: Store, orgId: string, fileIds: readonly string[]): void {
  const names = new Map<string, string>();
  fileIds.forEach((fileId, i) => {
    const file = store.files.get(orgId, fileId);
    if (file === undefined) throw new NotFoundError('file', fileId, `files[${i}]`);
    const other = names.get(file.name);
    if (other !== undefined) {
      throw new InvalidRequestError('duplicate_file_name', `files[${i}] (${fileId}) has the name '${file.name}' of ${other}: a run's input files need names of their own`, { param: `files[${i}]` });
    }
    names.set(file.name, fileId);
  });
}

function checked(a: Admission): RunCheck {
  return a.kind === 'replay'
    ? { object: 'run_check', replay_of: a.run.id, billing: a.billing, warnings: a.warnings }
    : { object: 'run_check', replay_of: null, billing: a.billing, warnings: a.warnings };
}

function runWarnings(problems: readonly RunProblem[], billing: BillingHint, budget: Budget): RunWarning[] {
  return [...problems.map(problemWarning), ...estimateWarnings(billing, budget)];
}

function problemWarning(p: RunProblem): RunWarning {
  return { code: p.code, message: `As things stand the run will fail at once with auth_required: ${p.detail}`, param: p.param };
}

/**
 * The billing hint's high end above what is left under the tighter cap: a long run would be stopped when its next
 * model call would cross the cap. Not a refusal: a short run fits, and the estimate is only an estimate.
 */
function estimateWarnings(hint: BillingHint, budget: Budget): RunWarning[] {
  if (hint.estimated_cost_usd.high <= budget.remainingUsd) return [];
  const cap = budget.bindingCap === 'monthly_cap' ? "the key's monthly cap (monthly_cap_usd)" : "the organisation's daily cap";
  return [
    {
      code: 'estimate_exceeds_cap',
      message:
        `A long run on ${hint.model} may cost up to ${hint.estimated_cost_usd.high} USD (billing.estimated_cost_usd.high), more than the ${budget.remainingUsd} USD ` +
        `left under ${cap}: the engine stops the run (timeout) before a model call that would cross it`,
      param: null,
    },
  ];
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

/**
 * A max_cost_usd below what the run's first model call may cost (the bound admission holds against the caps) would
 * fail every run at once with no model call: refused instead, naming what the first call needs.
 */
function checkMaxCost(n: NewRun, start: StartCost): void {
  const max = n.options.maxCostUsd;
  if (max === null || max >= start.usd) return;
  throw new InvalidRequestError(
    'max_cost_too_low',
    `max_cost_usd (${n.maxCostOrigin}) is ${max} USD, less than the ${start.usd} USD a run on ${n.model} needs before it can make its first model ` +
      `call (about ${start.inputTokens} input tokens for its prompt, output_schema and tools, up to ${start.outputTokens} output tokens, and ` +
      `${start.sandboxSeconds} s of sandbox time): raise it, or leave it out`,
    { param: 'max_cost_usd' },
  );
}

/** The body as it is hashed for idempotency: the key itself is not part of what must match. */
function withoutIdempotencyKey(body: { idempotency_key?: string }): object {
  const { idempotency_key: _key, ...rest } = body;
  return rest;
}
