import type { AttemptParticipant } from '../attempt/attempt-participant.js';
import type { ArtifactsService } from '../artifacts/artifacts-service.js';
import type { SpendCaps } from '../billing/caps.js';
import { ConnectionRequiredError } from '../connections/connection-required-error.js';
import type { RunConnections } from '../connections/run-connections.js';
import { InputFilesError } from '../files/input-files-error.js';
import type { Resources } from '../resources.js';
import { failedOutcome, type RunOutcome } from '../runs/run-outcome.js';
import { problemsDetail, runProblems } from '../runs/run-problems.js';
import { actionSpaceProblem } from '../runs/action-space-check.js';
import { CancelledStop, HostLostStop, LeaseLostStop, ShutdownStop, TimeoutStop } from '../runs/run-stop.js';
import type { SandboxSlot } from '../sandbox/driver.js';
import { SandboxError } from '../sandbox/sandbox-error.js';
import { fromJson } from '../store/json-columns.js';
import type { RunRow } from '../store/runs-table.js';
import type { FailureReason } from '../vocabulary/run-outcomes.js';
import { AgentLoop } from './agent-loop.js';
import { Evidence } from './evidence.js';
import { ProviderError, type ModelProvider } from './providers/provider.js';
import { RunAttempt, type RunAttemptDeps } from './run-attempt.js';

export interface RunExecutorDeps extends RunAttemptDeps {
  provider: ModelProvider;
  artifacts: ArtifactsService;
  caps: SpendCaps;
  connections: RunConnections;
  /**
   * What takes part in every attempt that has a sandbox, in the order they join (recording, the live view, files,
   * recipes, the proxy): docs/architecture.md, "Adding a participant".
   */
  participants: readonly AttemptParticipant[];
}

/**
 * Carries out one attempt of a claimed (`running`) run: the checks that need no model, the sandbox and the
 * participants, the agent loop, and the run's final transition. The dispatcher owns the AbortController; its reason
 * says why a run stops early (cancel, shutdown, lost lease), and the attempt's own timer adds `timeout_s`.
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
    const early = this.precheck(run);
    if (early !== null) {
      this.r.logger.info({ runId: run.id, attempt: run.attempt, reason: early.status === 'failed' ? early.reason : null }, 'run failed before it started');
      await this.deps.runs.endAttempt(run, early);
      return;
    }
    const attempt = new RunAttempt(this.r, this.deps, run, controller);
    let outcome: RunOutcome | null;
    try {
      outcome = await this.carryOut(attempt, slot);
    } catch (err) {
      outcome = this.failureOf(err, attempt.signal, attempt.logger);
    }
    await attempt.finish(outcome);
  }

  /** The sandbox, its participants, then the agent (unless a participant carried the attempt out). */
  private async carryOut(attempt: RunAttempt, slot: SandboxSlot | undefined): Promise<RunOutcome> {
    const { run, signal, logger, phases } = attempt;
    // Connections first: a run that names one it cannot use fails before any model call or sandbox.
    const prepared = await this.deps.connections.prepare(run);
    if (prepared.kind === 'refused') {
      logger.info({ reason: 'auth_required' }, 'run failed before it started');
      return failedOutcome('auth_required', prepared.detail);
    }
    const { session, recorder, meter, tools } = await attempt.open(prepared.credentials, slot);
    await session.join(this.deps.participants);
    logger.info({ sandbox: session.driverSandbox.id, driver: this.deps.driver.name, ...(slot === undefined ? {} : { host: slot.host }) }, 'run started');
    const evidence = new Evidence({ run, sandbox: session.sandbox, signal, recorder, artifacts: this.deps.artifacts, clock: this.r.clock, logger, phases });
    const context = session.toolContext({ evidence, timeLimit: attempt.timer });
    const start = await session.begin(context);
    if (start?.kind === 'finished') return start.outcome;
    const outcome = await phases.time('agent', () =>
      new AgentLoop({
        run,
        provider: this.deps.provider,
        tools,
        context,
        inputFiles: session.inputFiles,
        handover: [start?.handover, ...session.briefings].filter((text) => text !== undefined).join('\n\n') || null,
        recorder,
        evidence,
        signal,
        caps: this.deps.caps,
        prices: this.deps.prices,
        config: this.r.config,
        clock: this.r.clock,
        chargeSandboxTime: () => meter.charge(),
        gate: session.gate,
        notes: () => session.notes(),
      }).run(),
    );
    return { ...outcome, mode: outcome.mode ?? start?.mode ?? 'agent' };
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
    // A run made for the computer action space whose model the operator has since mapped to one without the tool.
    const actionSpace = actionSpaceProblem(this.r.config, run.model, run.action_space);
    const details = [...(problems.length === 0 ? [] : [problemsDetail(problems)]), ...(actionSpace === null ? [] : [actionSpace])];
    return details.length === 0 ? null : failedOutcome('auth_required', details.join(' Also, '));
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
