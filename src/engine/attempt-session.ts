import type { Logger } from 'pino';
import type { Attempt, AttemptParticipant, AttemptRole, AttemptStart, OutcomeChange } from '../attempt/attempt-participant.js';
import { OPEN_GATE, type AttemptGate } from '../attempt/attempt-gate.js';
import type { PlacedInput } from '../attempt/placed-input.js';
import type { ToolContext, ToolWaits } from '../agent-tools/agent-tool.js';
import type { RunCredentials } from '../connections/run-connections.js';
import { SecretMask } from '../connections/secret-mask.js';
import type { RunOutcome } from '../runs/run-outcome.js';
import type { Sandbox } from '../sandbox/driver.js';
import type { RunRecorder } from '../steps/run-recorder.js';
import type { RunRow } from '../store/runs-table.js';
import type { AttemptTrace } from '../tracing/attempt-trace.js';
import type { AttemptPhases } from './attempt-phases.js';

/**
 * One attempt's sandbox and its participants (issue 32, item 1): what they are given (the `Attempt` they see), what
 * they add to it as they join, and the order they act in: joining in the list's order, the first `begin` that
 * answers, settling side by side once an outcome exists (changes applied in the list's order), and closing in the
 * reverse order of joining, once each, however the attempt ends.
 */
export class AttemptSession implements Attempt {
  private current: Sandbox;
  private placed: readonly PlacedInput[] = [];
  private openGate: AttemptGate = OPEN_GATE;
  private readonly briefed: string[] = [];
  private readonly noteSources: (() => string[])[] = [];
  private readonly roles: { name: string; role: AttemptRole }[] = [];
  private closed = false;

  constructor(
    readonly run: RunRow,
    readonly signal: AbortSignal,
    readonly logger: Logger,
    readonly credentials: RunCredentials,
    readonly mask: SecretMask,
    /** The driver's sandbox, which is removed at the attempt's end whatever wraps it. */
    readonly driverSandbox: Sandbox,
    private readonly recorder: RunRecorder,
    private readonly phases: AttemptPhases,
    private readonly waits: ToolWaits,
    private readonly trace: AttemptTrace,
  ) {
    this.current = driverSandbox;
  }

  get sandbox(): Sandbox {
    return this.current;
  }

  get inputFiles(): readonly PlacedInput[] {
    return this.placed;
  }

  /** The gate a participant added (the live view's), or one that is always open. */
  get gate(): AttemptGate {
    return this.openGate;
  }

  progress(text: string): void {
    this.recorder.lastAction(text);
  }

  time<T>(phase: string, work: () => Promise<T>): Promise<T> {
    return this.phases.time(phase, work);
  }

  /** Each participant joins in turn, seeing what those before it added. */
  async join(participants: readonly AttemptParticipant[]): Promise<void> {
    for (const participant of participants) {
      const role = await this.time(`${participant.name}.join`, () => participant.join(this));
      if (role === null) continue;
      this.roles.push({ name: participant.name, role });
      const joined = role.joined ?? {};
      if (joined.sandbox !== undefined) this.current = joined.sandbox;
      if (joined.inputFiles !== undefined) this.placed = joined.inputFiles;
      if (joined.gate !== undefined) this.openGate = joined.gate;
      if (joined.briefing !== undefined) this.briefed.push(joined.briefing);
      if (joined.notes !== undefined) this.noteSources.push(joined.notes);
    }
  }

  /** What the participants tell the agent after its task, in their order. */
  get briefings(): readonly string[] {
    return this.briefed;
  }

  /** What the participants have told the agent since it last asked, in their order. */
  notes(): string[] {
    return this.noteSources.flatMap((source) => source());
  }

  /** What the agent's tools (and a participant's own start, a replay) are given. */
  toolContext(extra: Pick<ToolContext, 'evidence' | 'timeLimit'>): ToolContext {
    const { run, signal, logger, recorder, waits, trace } = this;
    return { run, sandbox: this.current, signal, recorder, logger, secrets: this.credentials.secrets, inputFiles: this.placed.map((f) => f.name), waits, trace, ...extra };
  }

  /** The first start a participant answers, or null: the agent starts from its task. */
  async begin(context: ToolContext): Promise<AttemptStart | null> {
    for (const { role } of this.roles) {
      const start = (await role.begin?.(context)) ?? null;
      if (start !== null) return start;
    }
    return null;
  }

  /** The participants keep what they keep of the outcome, side by side, and change it in their order. */
  async settle(outcome: RunOutcome): Promise<RunOutcome> {
    const changes = await Promise.all(
      this.roles.map(async ({ name, role }) => {
        if (role.settle === undefined) return null;
        try {
          return await this.time(`${name}.settle`, () => role.settle!(outcome));
        } catch (err) {
          // What a participant keeps is its own; the run's end must not wait on it.
          this.logger.error({ err, participant: name }, 'a participant of the attempt failed to settle; the outcome stands without its change');
          return null;
        }
      }),
    );
    return changes.reduce<RunOutcome>((changed, change: OutcomeChange | null) => (change === null ? changed : change(changed)), outcome);
  }

  /** Closes the roles in the reverse order of joining; a role that fails to close does not keep the others open. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const { name, role } of [...this.roles].reverse()) {
      if (role.close === undefined) continue;
      await role.close().catch((err: unknown) => this.logger.warn({ err, participant: name }, 'a participant of the attempt failed to close'));
    }
  }
}
