import type { ArtifactsService } from '../artifacts/artifacts-service.js';
import type { RunConnections, RunCredentials, RunProxy } from '../connections/run-connections.js';
import { SecretMask } from '../connections/secret-mask.js';
import type { SpendCaps } from '../billing/caps.js';
import type { PriceTable } from '../billing/prices.js';
import type { FailureReason } from '../vocabulary/run-outcomes.js';
import type { RunsService } from '../runs/runs-service.js';
import type { Resources } from '../resources.js';
import type { Sandbox, SandboxDriver, SandboxProxy, SandboxSlot } from '../sandbox/driver.js';
import { SandboxError } from '../sandbox/sandbox-error.js';
import { ConnectionRequiredError } from '../connections/connection-required-error.js';
import type { RunRow } from '../store/runs-table.js';
import type { LiveRuns } from '../live/live-runs.js';
import { InputFilesError } from '../files/input-files-error.js';
import type { PlacedInput, RunInputFiles } from '../files/run-input-files.js';
import { AgentLoop } from './agent-loop.js';
import { ControlGate } from './control-gate.js';
import { Evidence } from './evidence.js';
import { ProviderError, type ModelProvider } from './providers/provider.js';
import { failedOutcome, type RunOutcome, type SucceededOutcome } from '../runs/run-outcome.js';
import { runMoves } from '../runs/state-machine.js';
import { problemsDetail, runProblems } from './run-problems.js';
import { fromJson } from '../store/json-columns.js';
import { RunRecorder, type StepEvents } from './run-recorder.js';
import { RunRecording, withRecording, type RecordingIds } from './run-recording.js';
import type { SandboxMeter, SandboxMeters } from './sandbox-meter.js';
import { RunTimer } from './run-time-limit.js';
import { AttemptPhases } from './attempt-phases.js';
import { collectRunFiles, runFileLimits, withFilesProblem } from '../run-files/run-file-collection.js';
import { CancelledStop, HostLostStop, LeaseLostStop, ShutdownStop, TimeoutStop } from './run-stop.js';
import type { AttemptTools, ToolRegistry } from './tools/registry.js';
import type { UserSchemas } from '../runs/user-schemas.js';
import type { ToolContext } from '../agent-tools/agent-tool.js';
import { ObservedSandbox } from '../recipes/observed-sandbox.js';
import { buildRecipe } from '../recipes/recipe-builder.js';
import { RecipeReplay } from '../recipes/recipe-replay.js';
import type { RecipesService } from '../recipes/recipes-service.js';
import type { RunMode } from '../store/runs-table.js';

/** Copying a run's files into the data directory: minutes for the largest allowed, never for ever. */
const COLLECT_TIMEOUT_MS = 10 * 60_000;

export interface RunExecutorDeps {
  runs: RunsService;
  provider: ModelProvider;
  driver: SandboxDriver;
  artifacts: ArtifactsService;
  caps: SpendCaps;
  prices: PriceTable;
  tools: ToolRegistry;
  stepEvents: StepEvents;
  /** Where a run's sandbox time is metered, so that a transition ending it can settle it (see SandboxMeter). */
  meters: SandboxMeters;
  connections: RunConnections;
  /** Where the live view finds a running attempt's sandbox and control gate. */
  live: LiveRuns;
  /** Puts the run's input files into its sandbox (issue 23). */
  inputFiles: RunInputFiles;
  /** Jobs' recipes: replayed by runs that ask for it, recorded from job runs that succeed (issue 24). */
  recipes: RecipesService;
  /** Checks a replayed result against the run's output_schema. */
  schemas: UserSchemas;
}

/**
 * Carries out one attempt of a claimed (`running`) run: the checks that need no model, the sandbox, the agent
 * loop, and the run's final transition. The dispatcher owns the AbortController; its reason says why a run stops
 * early (cancel, shutdown, lost lease), and the executor's own timer adds `timeout_s`.
 *
 * failure_reason has only the spec's six values, and some failures of the engine are none of them. The rule
 * used is what the caller should do about it: `site_down` when retrying later may work (the model API or the
 * sandbox failed), `auth_required` when a setting or credential is missing (no usable model provider, a
 * missing connection), `timeout` when a limit ran out (time, steps, spend, attempts). failure_detail always
 * says what actually happened.
 */
export class RunExecutor {
  constructor(
    private readonly r: Resources,
    private readonly deps: RunExecutorDeps,
  ) {}

  /** Removes sandboxes a previous daemon left behind; called once before the first run is claimed. */
  removeOrphanedSandboxes(): Promise<number> {
    return this.deps.driver.removeOrphans();
  }

  /** `slot`: the host the dispatcher placed the run on (several hosts, issue 26); absent with one. */
  async execute(run: RunRow, controller: AbortController, slot?: SandboxSlot): Promise<void> {
    const logger = this.r.logger.child({ runId: run.id, attempt: run.attempt });
    const signal = controller.signal;
    const early = this.precheck(run);
    if (early) {
      logger.info({ reason: early.status === 'failed' ? early.reason : null }, 'run failed before it started');
      await this.end(run, early);
      return;
    }

    const phases = new AttemptPhases();
    // From the run's creation to this attempt: the queue and the claim (a retried attempt's includes the earlier ones).
    phases.add('queued', Math.max(0, this.r.clock.now() - Date.parse(run.created_at)));
    const timer = new RunTimer(run.timeout_s * 1000, () => controller.abort(new TimeoutStop(run.timeout_s)));
    let mask = SecretMask.none;
    let meter: SandboxMeter | null = null;
    let sandbox: Sandbox | null = null;
    let tools: AttemptTools | null = null;
    let recording: RunRecording | null = null;
    let recorded: RecordingIds | null = null;
    let detachLive: (() => void) | null = null;
    let outcome: RunOutcome | null = null;
    let destroyed: Promise<void> | null = null;
    try {
      // Connections first: a run that names one it cannot use fails before any model call or sandbox.
      const prepared = await this.deps.connections.prepare(run);
      if (prepared.kind === 'refused') {
        logger.info({ reason: 'auth_required' }, 'run failed before it started');
        outcome = failedOutcome('auth_required', prepared.detail);
      } else {
        const { credentials } = prepared;
        mask = new SecretMask(credentials.secrets);
        const recorder = new RunRecorder(this.r, this.deps.prices, run, run.attempt, this.deps.stepEvents, mask);
        const started = this.deps.meters.start(run.id, recorder);
        meter = started;
        recorder.lastAction('connecting tools');
        const opened = await phases.time('tools', () => this.deps.tools.open(run, signal, mask));
        tools = opened;
        recorder.lastAction('starting the sandbox');
        const created = await phases.time('sandbox', () => this.createSandbox(run, credentials, signal, logger, slot));
        sandbox = created;
        if (credentials.proxy !== null) await created.useProxy(sandboxProxy(credentials.proxy), signal);
        started.begin();
        await phases.time('output_limits', () => created.limitOutputs(runFileLimits(this.r.config), signal));
        recorder.lastAction('placing the input files');
        const inputFiles = await phases.time('input_files', () => this.deps.inputFiles.place(run.id, created, signal));
        if (RunRecording.wanted(run, this.r.config['recording.enabled'])) {
          const starting = new RunRecording(run, created, credentials, this.deps.artifacts, logger);
          recording = starting;
          await phases.time('recording_start', () => starting.start(signal));
        }
        const gate = new ControlGate();
        detachLive = this.deps.live.attach({ orgId: run.org_id, runId: run.id, sandbox, gate, mask });
        logger.info({ sandbox: sandbox.id, driver: this.deps.driver.name, ...(slot === undefined ? {} : { host: slot.host }) }, 'run started');
        // What the run does in its sandbox is kept for the recipe its success makes (a job's run).
        const observed = new ObservedSandbox(sandbox);
        const evidence = new Evidence({ run, sandbox: observed, signal, recorder, artifacts: this.deps.artifacts, clock: this.r.clock, logger, phases });
        const context: ToolContext = { run, sandbox: observed, signal, recorder, evidence, logger, secrets: credentials.secrets, inputFiles: inputFiles.map((f) => f.name), timeLimit: timer };
        const replayed = await phases.time('replay', () => this.replay(run, context, inputFiles, logger));
        let mode: RunMode = 'agent';
        if (replayed?.kind === 'replayed') outcome = replayed.outcome;
        else if (replayed?.kind === 'diverged') mode = 'replay_then_agent';
        outcome ??= await phases.time('agent', () => new AgentLoop({
          run,
          provider: this.deps.provider,
          tools: opened,
          context,
          inputFiles,
          handover: replayed?.kind === 'diverged' ? replayed.handover : null,
          recorder,
          evidence,
          signal,
          caps: this.deps.caps,
          prices: this.deps.prices,
          config: this.r.config,
          clock: this.r.clock,
          chargeSandboxTime: () => started.charge(),
          gate,
        }).run());
        if (outcome.mode === undefined) outcome = { ...outcome, mode };
        if (outcome.status === 'succeeded' && outcome.mode !== 'replay') {
          const succeeded = outcome;
          outcome = await phases.time('recipe', () => this.recordRecipe(run, observed, inputFiles, succeeded, mask, signal, logger));
        }
      }
    } catch (err) {
      outcome = this.failureOf(err, signal, logger);
    } finally {
      timer.stop();
      detachLive?.();
      const opened = tools;
      if (opened !== null) await phases.time('tools_close', () => opened.close());
      // The recording, and the run's files, only for an attempt that ends the run here (a failed one's files too),
      // before its sandbox goes: a cancelled or re-queued one has no envelope to link them from, and the spec stops a
      // cancelled run's sandbox within 5 s. The two are independent (the recording's files are not the run's), so
      // they are kept side by side (issue 24).
      const finishing = recording;
      const ending = outcome;
      const inSandbox = sandbox;
      if (ending !== null) {
        [recorded, outcome] = await phases.time('wrap_up', () =>
          Promise.all([
            finishing === null ? null : phases.time('recording_finish', () => finishing.finish()),
            inSandbox === null ? ending : phases.time('files', () => this.keepFiles(run, inSandbox, ending, mask, logger)),
          ]),
        );
      }
      // The sandbox's removal starts now and runs alongside the run's end: nothing of the run needs the sandbox any
      // more, and its end (the envelope, the webhook) need not wait for the engine to remove a container (issue 24).
      // The attempt still waits for it before it lets its place go, so that no more sandboxes exist than runs may.
      if (sandbox !== null) {
        const removing = sandbox;
        destroyed = phases.time('destroy', () => removing.destroy().catch((err: unknown) => logger.error({ err }, 'could not remove the sandbox')));
      }
    }
    const ended = outcome;
    // The ending transition bills the sandbox time up to the run's end (SandboxMeter.settle), not its removal; a
    // cancelled run's meter was settled by the cancel itself.
    try {
      if (ended !== null) await phases.time('end', () => this.end(run, withRecording(maskedOutcome(ended, mask), recorded, this.r.clock.now())));
    } finally {
      meter?.close();
      await destroyed;
    }
    logger.info({ outcome: outcome === null ? `stopped: ${describeReason(signal.reason)}` : outcome.status, phases }, 'run attempt ended');
  }

  /**
   * Keeps the run's files, and says in the outcome what was not kept: past a limit, a failure (withFilesProblem); a
   * file that holds one of the run's secrets, or files the sandbox could not hand over, a warning (the run did what it
   * was asked, and its files were lost to its secrets or with the sandbox, not to a limit).
   */
  private async keepFiles(run: RunRow, sandbox: Sandbox, outcome: RunOutcome, mask: SecretMask, logger: Resources['logger']): Promise<RunOutcome> {
    try {
      const kept = await collectRunFiles({ run, sandbox, artifacts: this.deps.artifacts, limits: runFileLimits(this.r.config), mask, signal: AbortSignal.timeout(COLLECT_TIMEOUT_MS), logger });
      return withFilesProblem(outcome, kept);
    } catch (err) {
      logger.warn({ err }, "the run's files could not be kept");
      return { ...outcome, warnings: [...outcome.warnings, `the run's files could not be kept: ${err instanceof Error ? err.message : String(err)}`] };
    }
  }

  /**
   * A replay of the run's job's recipe, when the run asks for one (`replay: auto`) and its job has a recipe; null
   * otherwise. A run that needs a person's approval before it submits never replays: the agent asks for it.
   */
  private async replay(run: RunRow, ctx: ToolContext, inputFiles: readonly PlacedInput[], logger: Resources['logger']): Promise<Awaited<ReturnType<RecipeReplay['run']>> | null> {
    if (run.replay !== 'auto' || run.job_id === null || run.require_approval === 1) return null;
    const latest = this.deps.recipes.latest(run.job_id);
    if (latest === null) return null;
    const replay = new RecipeReplay(latest.recipe, ctx, { codeTimeoutS: this.r.config['sandbox.code_timeout_s'], schemas: this.deps.schemas, version: latest.version, inputFiles });
    // The envelope says so while it runs; the move that ends the run writes the mode it ended in.
    this.r.store.runs.patch(run.id, 'running', { mode: 'replay' });
    const ended = await replay.run();
    if (ended.kind === 'diverged') {
      logger.info({ at: ended.at, version: latest.version }, 'the replay diverged from its recipe; the agent takes over');
      this.r.store.runs.patch(run.id, 'running', { mode: 'replay_then_agent' });
    }
    return ended;
  }

  /**
   * A job's run that succeeded (valid result, confidence not low) becomes the job's next recipe version. One that
   * cannot be made into a recipe is said in a warning when the run asked for replay, and in the log otherwise.
   */
  private async recordRecipe(
    run: RunRow,
    observed: ObservedSandbox,
    inputFiles: readonly PlacedInput[],
    outcome: SucceededOutcome,
    mask: SecretMask,
    signal: AbortSignal,
    logger: Resources['logger'],
  ): Promise<RunOutcome> {
    if (run.job_id === null || outcome.confidence === 'low') return outcome;
    const usedBrowser = observed.observations.some((o) => o.kind === 'browser');
    // Read past the observer: the final page's text is the recipe's source, not a step of it.
    const finalPageText = usedBrowser ? await this.finalPageText(observed, signal) : null;
    const inputs = fromJson<Record<string, unknown>>(run.inputs) ?? {};
    const built = buildRecipe({ observations: observed.observations, inputs, inputFiles, result: outcome.result, finalPageText, mask });
    if ('why' in built) {
      logger.info({ why: built.why }, 'no recipe recorded from this run');
      return run.replay === 'auto' ? { ...outcome, warnings: [...outcome.warnings, `replay: no recipe was recorded from this run: ${built.why}`] } : outcome;
    }
    const version = this.deps.recipes.record(run.org_id, run.job_id, run.id, built.recipe);
    logger.info({ version }, 'recorded a recipe of the job');
    return outcome;
  }

  private async finalPageText(observed: ObservedSandbox, signal: AbortSignal): Promise<string | null> {
    const read = await observed.unobserved.browser({ action: 'read_text' }, signal);
    return read.ok ? read.text : null;
  }

  /**
   * One retry when the sandbox did not start: on a loaded host a supervisor or container can miss its start
   * deadline once, and a second try costs the run far less than failing it.
   */
  private async createSandbox(run: RunRow, credentials: RunCredentials, signal: AbortSignal, logger: Resources['logger'], slot: SandboxSlot | undefined): Promise<Sandbox> {
    const options = { runId: run.id, env: credentials.env, signal, ...(slot === undefined ? {} : { slot }) };
    try {
      return await this.deps.driver.create(options);
    } catch (err) {
      if (signal.aborted || !(err instanceof SandboxError) || err.code !== 'start_failed') throw err;
      logger.warn({ err }, 'the sandbox did not start; trying once more');
      return this.deps.driver.create(options);
    }
  }

  /**
   * Failures that need no sandbox, no connection and no model call: every reason there is, so that fixing the first
   * does not merely reveal the next (issue 21, item 14).
   */
  private precheck(run: RunRow): RunOutcome | null {
    const problems = runProblems(this.deps.provider, this.deps.connections, {
      orgId: run.org_id,
      projectId: run.project_id,
      connections: fromJson<string[]>(run.connections) ?? [],
      proxy: run.proxy,
    });
    return problems.length === 0 ? null : failedOutcome('auth_required', problemsDetail(problems));
  }

  /** What an exception means for the run, or null when the run must be left as it is (already ended, or to be re-queued). */
  private failureOf(err: unknown, signal: AbortSignal, logger: Resources['logger']): RunOutcome | null {
    if (signal.aborted) {
      const reason: unknown = signal.reason;
      if (reason instanceof TimeoutStop) return failedOutcome('timeout', reason.detail);
      if (reason instanceof CancelledStop || reason instanceof ShutdownStop || reason instanceof LeaseLostStop || reason instanceof HostLostStop) return null;
    }
    if (err instanceof ProviderError) return failedOutcome(failureReasonOf(err), `the model API call failed: ${err.message}`);
    if (err instanceof SandboxError) return failedOutcome('site_down', `the sandbox failed: ${err.message}`);
    if (err instanceof ConnectionRequiredError) return failedOutcome('auth_required', err.message);
    if (err instanceof InputFilesError) return failedOutcome('not_found', err.message);
    logger.error({ err }, 'run failed on an unexpected error');
    return failedOutcome('site_down', 'the engine failed unexpectedly while running this task; the daemon log has the details under this run id');
  }

  private async end(run: RunRow, outcome: RunOutcome): Promise<void> {
    await endRun(this.r, this.deps.runs, run, outcome);
  }
}

/**
 * Ends a running run with an attempt's outcome (a live or a test-mode attempt's), committed with the other writes of
 * the same turn: runs that fail on a precheck end many at a time.
 */
export async function endRun(r: Pick<Resources, 'store' | 'clock'>, runs: RunsService, run: RunRow, outcome: RunOutcome): Promise<void> {
  // Null when the run is no longer running (cancelled meanwhile: terminal states never change), or when this
  // worker lost its lease and another attempt owns the run now: a stale attempt must not end the new one.
  const ending = { runId: run.id, nowMs: r.clock.now(), leaseOwner: run.lease_owner };
  const move = outcome.status === 'succeeded' ? runMoves.finish({ ...ending, outcome }) : runMoves.fail({ ...ending, outcome });
  await r.store.groupTransaction((uow) => runs.apply(uow, move));
}

/** A credential or setting the caller's operator must fix is auth_required; anything that may pass is site_down. */
function failureReasonOf(err: ProviderError): FailureReason {
  switch (err.kind) {
    case 'not_configured':
    case 'unauthorized':
      return 'auth_required';
    case 'unavailable':
    case 'unreachable':
    case 'refused':
    case 'malformed':
      return 'site_down';
    default: {
      const unknown: never = err.kind;
      throw new Error(`unknown provider error kind ${String(unknown)}`);
    }
  }
}

/**
 * A failure's detail can quote a server's or a program's words, and a result or the evidence's matched text what a
 * page or a program showed the model; any of them can hold a secret of the run (issue 21, item 7).
 */
function maskedOutcome(outcome: RunOutcome, mask: SecretMask): RunOutcome {
  if (mask.isEmpty) return outcome;
  const warnings = outcome.warnings.map((w) => mask.text(w));
  const evidence = outcome.evidence === null ? null : { ...outcome.evidence, matched_text: outcome.evidence.matched_text === null ? null : mask.text(outcome.evidence.matched_text) };
  return outcome.status === 'failed'
    ? { ...outcome, detail: mask.text(outcome.detail), warnings, evidence }
    : { ...outcome, result: mask.value(outcome.result), warnings, evidence };
}

/** The run's proxy as its sandbox takes it: the credentials go to the supervisor alone. */
function sandboxProxy(proxy: RunProxy): SandboxProxy {
  const { endpoint, label, addresses } = proxy;
  const credentials = endpoint.username === null ? {} : { username: endpoint.username, password: endpoint.password ?? '' };
  return { request: { server: endpoint.url, label, ...credentials }, addresses, port: endpoint.port };
}

function describeReason(reason: unknown): string {
  return reason instanceof Error ? reason.message : String(reason);
}
