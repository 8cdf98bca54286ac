import type { Takeover } from '../steps/run-recorder.js';

/**
 * What the agent passes before each model call and each tool call: open unless a person holds the browser. The
 * agent waits there, making no call and spending nothing, and is told afterwards what was done (`drain`).
 */
export interface AttemptGate {
  /** Who holds control now, or null. */
  readonly holder: { by: string; sinceMs: number } | null;
  /** Resolves once nobody holds control (at once when nobody does); rejects with the signal's reason on abort. */
  pass(signal: AbortSignal): Promise<void>;
  /** The takeovers that ended since the last call, oldest first. */
  drain(): Takeover[];
}

/** The gate of an attempt nobody can take over: always open. */
export const OPEN_GATE: AttemptGate = {
  holder: null,
  pass: async (signal) => signal.throwIfAborted(),
  drain: () => [],
};
