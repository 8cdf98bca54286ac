import { describe, expect, it } from 'vitest';
import { delayBeforeAttempt, MAX_RETRY_AFTER_MS, parseRetryAfter } from '../../src/webhooks/retry-policy.js';

const schedule = [0, 5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400];

describe('delayBeforeAttempt', () => {
  it('follows the decisions page schedule: immediately, 5 s, 5 min, ... 24 h, then no more attempts', () => {
    const none = () => 0;
    expect(schedule.map((_, i) => delayBeforeAttempt(i + 1, schedule, none))).toEqual(schedule.map((s) => s * 1000));
    expect(delayBeforeAttempt(11, schedule, none)).toBeNull();
  });

  it('adds at most 10% jitter', () => {
    expect(delayBeforeAttempt(3, schedule, () => 0.999999)).toBe(Math.round(300_000 * 1.0999999));
    expect(delayBeforeAttempt(3, schedule, () => 0.5)).toBe(315_000);
    expect(delayBeforeAttempt(1, schedule, () => 0.9)).toBe(0);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-22T09:00:00.000Z');

  it('reads delay-seconds and HTTP dates', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 09:01:30 GMT', now)).toBe(90_000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 08:00:00 GMT', now)).toBe(0);
  });

  it('ignores what it cannot read and caps what is absurd', () => {
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter('-5', now)).toBeNull();
    expect(parseRetryAfter('99999999', now)).toBe(MAX_RETRY_AFTER_MS);
  });
});
