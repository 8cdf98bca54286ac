/** When to try a request again, and how long to wait first. */

/** Statuses worth another attempt: the request was refused before it did anything, or the server failed. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * The wait before attempt `attempt + 1` (0-based): the answer's `Retry-After` (seconds or an HTTP date) when it has
 * one, else exponential backoff from `baseMs` with jitter, at most `maxMs`.
 */
export function retryDelayMs(attempt: number, headers: Headers | null, baseMs: number, maxMs: number, now = Date.now()): number {
  const after = headers ? retryAfterMs(headers.get('retry-after'), now) : null;
  if (after !== null) return after;
  const backoff = Math.min(maxMs, baseMs * 2 ** attempt);
  return Math.round(backoff * (0.75 + Math.random() * 0.25));
}

/** A `Retry-After` value in milliseconds, or null when there is none or it cannot be read. */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.round(Number(value) * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
