/** How a finished run is judged: the spec's six failure reasons and three confidence levels. */
export const FAILURE_REASONS = ['captcha', 'auth_required', 'site_down', 'timeout', 'ambiguous', 'not_found'] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

/**
 * A failed run's finer reason, where the engine has one, beside its failure_reason: the spec fixes failure_reason to
 * six values and the decisions page keeps it inside them ("ran out of ... spend allowance: timeout"), so a new reason
 * is an additive member of the envelope (`failure_code`), never a seventh failure_reason. Each code says which of the
 * six it is reported under. docs/api.md, Failure codes.
 */
export const FAILURE_CODES = {
  /** The run's own max_cost_usd would have been passed by its next model call. */
  budget_exceeded: 'timeout',
} as const satisfies Record<string, FailureReason>;
export type FailureCode = keyof typeof FAILURE_CODES;
export const FAILURE_CODE_NAMES = Object.keys(FAILURE_CODES) as FailureCode[];

export const CONFIDENCES = ['high', 'medium', 'low'] as const;
export type Confidence = (typeof CONFIDENCES)[number];
