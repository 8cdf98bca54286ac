import type { AttemptGate } from '../attempt/attempt-gate.js';
import type { Takeover } from '../steps/run-recorder.js';

interface Holding {
  by: string;
  sinceMs: number;
  token: string;
}

/**
 * Whether a person holds control of a run's browser, and the gate the agent passes before each model call and each
 * tool call: open while nobody holds control, shut while someone does. The agent waits at the gate, so while a
 * person works the page it makes no model call and no tool call, and spends no tokens; it is told afterwards
 * what was done (`drain`). One controller at a time.
 */
export class ControlGate implements AttemptGate {
  private holding: Holding | null = null;
  private readonly waiters = new Set<() => void>();
  private readonly finished: Takeover[] = [];

  get holder(): { by: string; sinceMs: number } | null {
    return this.holding === null ? null : { by: this.holding.by, sinceMs: this.holding.sinceMs };
  }

  /** Whether `token` is the one `take` gave the current controller. */
  holds(token: string): boolean {
    return this.holding !== null && this.holding.token === token;
  }

  /** Takes control for `by`, with `token` as the controller's proof (`holds`); false when someone holds it already. */
  take(by: string, token: string, nowMs: number): boolean {
    if (this.holding !== null) return false;
    this.holding = { by, sinceMs: nowMs, token };
    return true;
  }

  /** Ends the current control (the person's hand-back, or a revocation) and opens the gate. */
  release(nowMs: number, note: string | null, revoked: boolean): Takeover | null {
    const holding = this.holding;
    if (holding === null) return null;
    this.holding = null;
    const takeover: Takeover = { by: holding.by, startedAtMs: holding.sinceMs, endedAtMs: nowMs, note, revoked };
    this.finished.push(takeover);
    for (const wake of this.waiters) wake();
    this.waiters.clear();
    return takeover;
  }

  /** Resolves once nobody holds control (at once when nobody does); rejects with the signal's reason on abort. */
  async pass(signal: AbortSignal): Promise<void> {
    while (this.holding !== null) {
      signal.throwIfAborted();
      await new Promise<void>((resolve, reject) => {
        const onAbort = (): void => {
          this.waiters.delete(wake);
          reject(signal.reason as Error);
        };
        const wake = (): void => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        };
        this.waiters.add(wake);
        signal.addEventListener('abort', onAbort, { once: true });
      });
    }
  }

  /** The takeovers that ended since the last call, oldest first, for the agent's note and the run's steps. */
  drain(): Takeover[] {
    return this.finished.splice(0);
  }
}
