/** Jitter spreads retries of many deliveries that failed together (a receiver outage) instead of stampeding back. */
export const MAX_JITTER = 0.1;

/** Longest `Retry-After` honoured; a receiver asking for more still gets its next scheduled attempt within a day. */
export const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * Milliseconds to wait before attempt `attempt` (1-based) under `scheduleS` (`webhooks.retry_schedule_s`: the
 * delay before each attempt), with up to 10% jitter; null when the schedule has no such attempt.
 */
export function delayBeforeAttempt(attempt: number, scheduleS: readonly number[], random: () => number = Math.random): number | null {
  const base = scheduleS[attempt - 1];
  if (base === undefined) return null;
  return Math.round(base * 1000 * (1 + MAX_JITTER * random()));
}

/** A `Retry-After` header (delay-seconds or HTTP-date) as milliseconds from `nowMs`, or null when absent or unreadable. */
export function parseRetryAfter(header: string | undefined, nowMs: number): number | null {
  if (header === undefined) return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Math.min(Number(value) * 1000, MAX_RETRY_AFTER_MS);
  // An HTTP-date names a weekday and month; without letters Date.parse would read numbers such as "-5" as years.
  const at = /[a-z]/i.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(at)) return null;
  return Math.min(Math.max(0, at - nowMs), MAX_RETRY_AFTER_MS);
}
