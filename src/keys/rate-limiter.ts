import type { Resources } from '../resources.js';
import type { Clock } from '../clock.js';

/** Buckets kept before full ones are dropped; a full bucket is the same as none. */
const PRUNE_AT = 10_000;

/**
 * A token bucket per name (an API key; a client's address, for OAuth registration): `limit` requests per
 * `windowMs` on average, bursts up to the same number. In memory because Errand runs on one node; a restart forgives
 * the last window, which is harmless. Buckets that have filled up again are dropped once there are many, so that
 * callers who name themselves (client addresses) cannot grow the map without bound.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly ratePerMs: number;
  private pruneAt = PRUNE_AT;

  constructor(
    private readonly limit: number,
    private readonly clock: Clock,
    windowMs = 60_000,
  ) {
    this.ratePerMs = limit / windowMs;
  }

  /** Takes one token; returns 0 when allowed, else the seconds until a token is available. */
  take(name: string): number {
    const now = this.clock.now();
    const b = this.refilled(this.buckets.get(name), now);
    if (this.buckets.size >= this.pruneAt) this.prune(now);
    this.buckets.set(name, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return (1 - b.tokens) / this.ratePerMs / 1000;
  }

  private refilled(b: { tokens: number; at: number } | undefined, now: number): { tokens: number; at: number } {
    if (b === undefined) return { tokens: this.limit, at: now };
    return { tokens: Math.min(this.limit, b.tokens + (now - b.at) * this.ratePerMs), at: now };
  }

  private prune(now: number): void {
    for (const [name, b] of this.buckets) if (this.refilled(b, now).tokens >= this.limit) this.buckets.delete(name);
    this.pruneAt = Math.max(PRUNE_AT, 2 * this.buckets.size);
  }
}

/** One request rate per key, through the REST API and the MCP front door alike (`limits.requests_per_minute`). */
export function requestRateLimiter(resources: Pick<Resources, 'config' | 'clock'>): RateLimiter {
  return new RateLimiter(resources.config['limits.requests_per_minute'], resources.clock);
}
