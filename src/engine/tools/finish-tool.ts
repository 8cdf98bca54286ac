import type { Confidence, FailureReason } from '../../runs/envelope.js';
import { CONFIDENCES, FAILURE_REASONS } from './tool-specs.js';

export interface FinishInput {
  /** undefined when the model gave none (or null). */
  result: unknown;
  confidence: Confidence | null;
  failureReason: FailureReason | null;
  failureDetail: string | null;
  matchedText: string | null;
  evidenceScreenshot: string | null;
}

/** Reads the `finish` input leniently; only a failure_reason outside the six values is refused (returned as a message). */
export function parseFinishInput(input: Record<string, unknown>): FinishInput | string {
  const reason = input.failure_reason;
  if (reason !== undefined && reason !== null && !(FAILURE_REASONS as readonly unknown[]).includes(reason)) {
    return `failure_reason must be one of ${FAILURE_REASONS.join(', ')} (or null on success), not ${JSON.stringify(reason)}`;
  }
  const confidence = (CONFIDENCES as readonly unknown[]).includes(input.confidence) ? (input.confidence as Confidence) : null;
  const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);
  return {
    result: input.result === null ? undefined : input.result,
    confidence,
    failureReason: (reason as FailureReason | undefined) ?? null,
    failureDetail: text(input.failure_detail),
    matchedText: text(input.matched_text),
    evidenceScreenshot: text(input.evidence_screenshot),
  };
}
