/** How a finished run is judged: the spec's six failure reasons and three confidence levels. */
export const FAILURE_REASONS = ['captcha', 'auth_required', 'site_down', 'timeout', 'ambiguous', 'not_found'] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

export const CONFIDENCES = ['high', 'medium', 'low'] as const;
export type Confidence = (typeof CONFIDENCES)[number];
