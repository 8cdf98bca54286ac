import type { Clock } from '../clock.js';
import type { RunPatch } from '../store/runs-table.js';
import type { RunRecorder } from '../steps/run-recorder.js';

/**
 * The sandbox time of one attempt, billed as it passes: before each model call, when the sandbox is removed, or,
 * when the run ends by a transition the engine does not make (a cancel through the API), inside that transition.
 * After that nothing more is billed, so a run's envelope is final once it is terminal (#10): its sandbox time counts
 * up to the moment it ended, and the time its sandbox takes to shut down after a cancel is not billed.
 */
export class SandboxMeter {
  /** When the time not yet billed began; null before the sandbox exists. */
  private since: number | null = null;
  private stopped = false;

  constructor(
    private readonly clock: Clock,
    private readonly recorder: RunRecorder,
    private readonly onStop: () => void,
  ) {}

  /** The sandbox exists from now. */
  begin(): void {
    if (!this.stopped) this.since = this.clock.now();
  }

  /** Bills the time since the last charge, in a transaction of its own (before a model call). */
  charge(): void {
    const seconds = this.elapsedSeconds();
    if (seconds !== null) this.recorder.sandboxTime(seconds);
  }

  /** The sandbox is gone: bills the time since the last charge and stops. */
  close(): void {
    this.charge();
    this.stop();
  }

  /**
   * Bills the time since the last charge inside the caller's transaction (the one ending the run) and stops;
   * answers the usage columns the ending transition writes.
   */
  settle(): RunPatch {
    const seconds = this.elapsedSeconds();
    this.stop();
    if (seconds === null) return {};
    const costUsd = this.recorder.billSandbox(seconds);
    return costUsd === null ? {} : { cost_usd: costUsd };
  }

  private elapsedSeconds(): number | null {
    if (this.stopped || this.since === null) return null;
    const now = this.clock.now();
    const seconds = (now - this.since) / 1000;
    this.since = now;
    return seconds;
  }

  private stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.onStop();
  }
}

/** The meters of the attempts this daemon runs, by run id. */
export class SandboxMeters {
  private readonly open = new Map<string, SandboxMeter>();

  constructor(private readonly clock: Clock) {}

  start(runId: string, recorder: RunRecorder): SandboxMeter {
    const meter = new SandboxMeter(this.clock, recorder, () => {
      if (this.open.get(runId) === meter) this.open.delete(runId);
    });
    this.open.set(runId, meter);
    return meter;
  }

  /** Inside the unit of work of a run's terminal transition: what its meter, if this daemon runs it, still bills. */
  settle(runId: string): RunPatch {
    return this.open.get(runId)?.settle() ?? {};
  }
}
