import type { StoredEvidence } from './envelope.js';
import type { Confidence, FailureReason } from '../vocabulary/run-outcomes.js';
import type { RunMode } from '../vocabulary/run-modes.js';

/** How an attempt ended, as the engine decided it; the `finish` and `fail` moves (state-machine.ts) write it. */
export type RunOutcome =
  | {
      status: 'succeeded';
      result: Record<string, unknown>;
      confidence: Confidence;
      evidence: StoredEvidence | null;
      warnings: string[];
      /** How the attempt ran; absent: by the agent. */
      mode?: RunMode;
      /** The `run.status` line, when no mode says how the result came (a test-mode run's, made with no agent). */
      describedAs?: string;
    }
  | {
      status: 'failed';
      reason: FailureReason;
      detail: string;
      confidence: Confidence | null;
      evidence: StoredEvidence | null;
      warnings: string[];
      mode?: RunMode;
    };

export type SucceededOutcome = Extract<RunOutcome, { status: 'succeeded' }>;
export type FailedOutcome = Extract<RunOutcome, { status: 'failed' }>;

export function failedOutcome(reason: FailureReason, detail: string, extra: { evidence?: StoredEvidence | null; confidence?: Confidence | null; warnings?: string[] } = {}): FailedOutcome {
  return { status: 'failed', reason, detail, confidence: extra.confidence ?? null, evidence: extra.evidence ?? null, warnings: extra.warnings ?? [] };
}
