import type { SecretMask } from '../connections/secret-mask.js';
import type { ControlGate } from './control-gate.js';
import type { Sandbox } from '../sandbox/driver.js';

/** A running attempt as the live view reaches it: its sandbox, and the gate its agent waits at. */
export interface LiveRun {
  orgId: string;
  runId: string;
  sandbox: Sandbox;
  gate: ControlGate;
  /** The run's secrets in every form: masked in the frames' text as in its steps. */
  mask: SecretMask;
  /** Aborted when the attempt ends: open frame streams and input end with it. */
  ended: AbortSignal;
}

/**
 * The runs this daemon executes that have a sandbox, by run id: the engine adds each attempt once its sandbox is up
 * and removes it before the sandbox goes; the live view finds them here. Built once by the daemon's wiring and
 * handed to both.
 */
export class LiveRuns {
  private readonly runs = new Map<string, LiveRun>();

  /** Adds the attempt; answers the way to remove it, which also ends its streams. */
  attach(run: Omit<LiveRun, 'ended'>): () => void {
    const ending = new AbortController();
    const live: LiveRun = { ...run, ended: ending.signal };
    this.runs.set(run.runId, live);
    return () => {
      if (this.runs.get(run.runId) === live) this.runs.delete(run.runId);
      ending.abort();
    };
  }

  get(orgId: string, runId: string): LiveRun | null {
    const run = this.runs.get(runId);
    return run !== undefined && run.orgId === orgId ? run : null;
  }
}
