import type { Clock } from '../clock.js';

/**
 * A token bucket per API key: `perMinute` requests a minute on average, bursts up to the same number.
 * In memory because Errand runs on one node; a restart forgives the last minute, which is harmless.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly ratePerMs: number;

  constructor(
    private readonly perMinute: number,
    private readonly clock: Clock,
  ) {
    this.ratePerMs = perMinute / 60_000;
  }

  /** Takes one token; returns 0 when allowed, else the seconds until a token is available. */
  take(key: string): number {
    const now = this.clock.now();
    const b = this.buckets.get(key) ?? { tokens: this.perMinute, at: now };
    b.tokens = Math.min(this.perMinute, b.tokens + (now - b.at) * this.ratePerMs);
    b.at = now;
    this.buckets.set(key, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return (1 - b.tokens) / this.ratePerMs / 1000;
  }
}
