import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/keys/rate-limiter.js';

const HOUR = 3600 * 1000;

describe('RateLimiter', () => {
  it('allows `limit` takes per window, then answers the seconds until the next', () => {
    let now = 0;
    const limiter = new RateLimiter(2, { now: () => now }, HOUR);
    expect([limiter.take('a'), limiter.take('a')]).toEqual([0, 0]);
    expect(limiter.take('a')).toBeCloseTo(1800, 3);
    expect(limiter.take('b')).toBe(0);
    now += HOUR / 2 + 1;
    expect(limiter.take('a')).toBe(0);
  });

  it('drops the buckets of names that are full again once there are many, but never forgives a name that spent its takes', () => {
    let now = 0;
    const limiter = new RateLimiter(1, { now: () => now }, 60_000);
    expect(limiter.take('spent')).toBe(0);
    now += 1000;
    for (let i = 0; i < 20_000; i++) limiter.take(`caller-${i}`);
    expect(limiter.take('spent')).toBeGreaterThan(0);
    now += 60_000;
    for (let i = 0; i < 20_000; i++) expect(limiter.take(`caller-${i}`)).toBe(0);
  });
});
