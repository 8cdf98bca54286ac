import { isoTime } from '../clock.js';
import type { StoredEvidence } from './envelope.js';
import type { Confidence, FailureReason } from '../vocabulary/run-outcomes.js';
import { toJson } from '../store/json-columns.js';
import type { RunPatch } from '../store/runs-table.js';

/** How an attempt ended, as the engine decided it; `outcomePatch` turns it into the run's final columns. */
export type RunOutcome =
  | {
      status: 'succeeded';
      result: Record<string, unknown>;
      confidence: Confidence;
      evidence: StoredEvidence | null;
      warnings: string[];
    }
  | {
      status: 'failed';
      reason: FailureReason;
      detail: string;
      confidence: Confidence | null;
      evidence: StoredEvidence | null;
      warnings: string[];
    };

export function failedOutcome(reason: FailureReason, detail: string, extra: { evidence?: StoredEvidence | null; confidence?: Confidence | null; warnings?: string[] } = {}): RunOutcome {
  return { status: 'failed', reason, detail, confidence: extra.confidence ?? null, evidence: extra.evidence ?? null, warnings: extra.warnings ?? [] };
}

export function outcomePatch(outcome: RunOutcome, finishedAtMs: number): RunPatch {
  const common: RunPatch = {
    confidence: outcome.confidence,
    evidence: toJson(outcome.evidence),
    warnings: JSON.stringify(outcome.warnings),
    finished_at: isoTime(finishedAtMs),
    lease_owner: null,
    lease_expires_at: null,
    last_action: outcome.status === 'succeeded' ? 'finished' : `failed: ${outcome.reason}`,
  };
  return outcome.status === 'succeeded'
    ? { ...common, result: JSON.stringify(outcome.result), failure_reason: null, failure_detail: null }
    : { ...common, result: null, failure_reason: outcome.reason, failure_detail: outcome.detail };
}
