import type { Logger } from 'pino';
import type { ToolWaits } from '../agent-tools/agent-tool.js';
import type { Waitpoints } from '../waitpoints/waitpoints.js';
import type { PriceTable } from '../billing/prices.js';
import type { RunCredentials } from '../connections/run-connections.js';
import { SecretMask } from '../connections/secret-mask.js';
import type { Resources } from '../resources.js';
import type { RunOutcome } from '../runs/run-outcome.js';
import type { RunsService } from '../runs/runs-service.js';
import { TimeoutStop } from '../runs/run-stop.js';
import { RunTimer } from '../runs/run-time-limit.js';
import type { Sandbox, SandboxDriver, SandboxSlot } from '../sandbox/driver.js';
import { SandboxError } from '../sandbox/sandbox-error.js';
import { RunRecorder, type StepEvents } from '../steps/run-recorder.js';
import type { RunRow } from '../store/runs-table.js';
import { traced } from '../tracing/attempt-trace.js';
import type { OpenAttemptTrace, RunTracing } from '../tracing/run-tracing.js';
import { AttemptPhases } from './attempt-phases.js';
import { AttemptSession } from './attempt-session.js';
import type { SandboxMeter, SandboxMeters } from './sandbox-meter.js';
import type { AttemptTools, ToolRegistry } from './tools/registry.js';

/** What an attempt needs of the engine: where it records, bills and ends, and what it opens. */
export interface RunAttemptDeps {
  runs: RunsService;
  driver: SandboxDriver;
  prices: PriceTable;
  tools: ToolRegistry;
  stepEvents: StepEvents;
  meters: SandboxMeters;
  /** Where the attempt's tools wait for something of their own (an email). */
  waitpoints: Waitpoints;
  /** Where the attempt is traced (RunTracing.off without tracing). */
  tracing: RunTracing;
}

/** What an opened attempt works with: the session its participants join, the recorder, the meter, the tools. */
export interface OpenedAttempt {
  session: AttemptSession;
  recorder: RunRecorder;
  meter: SandboxMeter;
  tools: AttemptTools;
}

/**
 * What the engine holds for one attempt of a run, from its claim to the move that ends it: the run's timer, where
 * the time went, the secrets' mask, the recorder, the sandbox meter, the tools and the sandbox with its
 * participants; and how they are let go, in order, however the attempt ends.
 */
export class RunAttempt {
  readonly logger: Logger;
  readonly phases = new AttemptPhases();
  readonly timer: RunTimer;
  /** The attempt's span, from its claim to its end; its parts' spans are its children. */
  readonly trace: OpenAttemptTrace;
  private mask = SecretMask.none;
  private meter: SandboxMeter | null = null;
  private tools: AttemptTools | null = null;
  private session: AttemptSession | null = null;

  constructor(
    private readonly r: Resources,
    private readonly deps: RunAttemptDeps,
    readonly run: RunRow,
    private readonly controller: AbortController,
  ) {
    this.logger = r.logger.child({ runId: run.id, attempt: run.attempt });
    // From the run's creation to this attempt: the queue and the claim (a retried attempt's includes the earlier ones).
    this.phases.add('queued', Math.max(0, r.clock.now() - Date.parse(run.created_at)));
    this.timer = new RunTimer(run.timeout_s * 1000, () => controller.abort(new TimeoutStop(run.timeout_s)));
    this.trace = deps.tracing.attempt(run, () => this.mask);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The recorder, the meter and the tools, then the sandbox: connections' tools come first, a sandbox last. */
  async open(credentials: RunCredentials, slot: SandboxSlot | undefined): Promise<OpenedAttempt> {
    const { run, signal, phases } = this;
    this.mask = new SecretMask(credentials.secrets);
    const recorder = new RunRecorder(this.r, this.deps.prices, run, run.attempt, this.deps.stepEvents, this.mask);
    const meter = this.deps.meters.start(run.id, recorder);
    this.meter = meter;
    recorder.lastAction('connecting tools');
    const tools = await phases.time('tools', () => this.deps.tools.open(run, signal, this.mask));
    this.tools = tools;
    recorder.lastAction('starting the sandbox');
    const sandbox = await phases.time('sandbox', () =>
      traced(this.trace, 'errand.sandbox.start', { 'errand.sandbox.driver': this.deps.driver.name, 'errand.sandbox.host': slot?.host }, () => this.createSandbox(credentials, slot)),
    );
    meter.begin();
    const waits: ToolWaits = {
      // The run's timeout_s runs while a tool waits: the agent chose to, for as long as the tool allows.
      during: (wait, until) =>
        this.deps.waitpoints.during(run, { kind: wait.kind, timer: 'runs', expiresAtMs: this.r.clock.now() + wait.timeoutS * 1000, detail: {} }, { signal, timeLimit: this.timer }, until),
    };
    const session = new AttemptSession(run, signal, this.logger, credentials, this.mask, sandbox, recorder, phases, waits, this.trace);
    this.session = session;
    return { session, recorder, meter, tools };
  }

  /**
   * Ends the attempt: the tools close, the participants settle the outcome and close, the sandbox's removal starts,
   * and the outcome (masked) ends the run; null leaves the run as it is (cancelled, or to be re-queued). The run's end
   * (the envelope, the webhook) does not wait for the engine to remove a container; the attempt does, before it
   * gives its place back, so that no more sandboxes exist than runs may.
   */
  async finish(outcome: RunOutcome | null): Promise<void> {
    const { phases, logger } = this;
    this.timer.stop();
    const tools = this.tools;
    if (tools !== null) await phases.time('tools_close', () => tools.close());
    let ended = outcome;
    let destroyed: Promise<void> | null = null;
    const session = this.session;
    if (session !== null) {
      const settling = ended;
      if (settling !== null) ended = await phases.time('wrap_up', () => session.settle(settling));
      await session.close();
      destroyed = phases.time('destroy', () => session.driverSandbox.destroy().catch((err: unknown) => logger.error({ err }, 'could not remove the sandbox')));
    }
    // The ending move bills the sandbox time up to the run's end (SandboxMeter.settle), not its removal; a cancelled
    // run's meter was settled by the cancel itself.
    try {
      const ending = ended;
      if (ending !== null) await phases.time('end', () => this.deps.runs.endAttempt(this.run, maskedOutcome(ending, this.mask)));
    } finally {
      this.meter?.close();
      await destroyed;
    }
    this.trace.end(ended);
    logger.info({ outcome: ended === null ? `stopped: ${describeReason(this.signal.reason)}` : ended.status, phases }, 'run attempt ended');
  }

  /**
   * One retry when the sandbox did not start: on a loaded host a supervisor or container can miss its start
   * deadline once, and a second try costs the run far less than failing it.
   */
  private async createSandbox(credentials: RunCredentials, slot: SandboxSlot | undefined): Promise<Sandbox> {
    const { signal } = this;
    const options = { runId: this.run.id, env: credentials.env, signal, ...(slot === undefined ? {} : { slot }) };
    try {
      return await this.deps.driver.create(options);
    } catch (err) {
      if (signal.aborted || !(err instanceof SandboxError) || err.code !== 'start_failed') throw err;
      this.logger.warn({ err }, 'the sandbox did not start; trying once more');
      return this.deps.driver.create(options);
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

function describeReason(reason: unknown): string {
  return reason instanceof Error ? reason.message : String(reason);
}
