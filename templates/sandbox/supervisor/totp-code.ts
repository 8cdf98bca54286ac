import { Secret, TOTP } from 'otpauth';
import type { TotpSeed } from '../../../src/sandbox/protocol.js';

/**
 * A code with fewer than this many milliseconds of its period left is not typed: the supervisor waits for the next
 * one. Filling the field, submitting and the site's check take a moment, and a site that accepts only the current
 * period would refuse a code that rolled over on the way; 3 s covers a slow submit with no more than 3 s of waiting.
 */
export const TOTP_ROLLOVER_MARGIN_MS = 3_000;

/** The code of `seed` at `atMs` (RFC 6238: HMAC of the period's counter, truncated to `digits`). */
export function totpCode(seed: TotpSeed, atMs: number): string {
  const totp = new TOTP({ secret: Secret.fromBase32(seed.secret), digits: seed.digits, period: seed.period, algorithm: seed.algorithm });
  return totp.generate({ timestamp: atMs });
}

/**
 * When to compute the codes of `seeds` so that each has at least `TOTP_ROLLOVER_MARGIN_MS` of its period left: `nowMs`
 * itself, or the start of the next period of a seed about to roll over (again for the others, whose periods may
 * differ, until all have the margin).
 */
export function typingTime(seeds: readonly TotpSeed[], nowMs: number): number {
  let at = nowMs;
  for (let round = 0; round < 10; round++) {
    const late = seeds.map((seed) => seed.period * 1000 - (at % (seed.period * 1000))).filter((left) => left < TOTP_ROLLOVER_MARGIN_MS);
    if (late.length === 0) return at;
    at += Math.max(...late);
  }
  return at;
}
