import { randomFillSync } from 'node:crypto';
import { monotonicFactory } from 'ulid';

export type IdPrefix = 'org' | 'key' | 'proj' | 'job' | 'run' | 'conn' | 'msg' | 'evt' | 'whd' | 'req' | 'step' | 'art' | 'fir';

export type IdFactory = (prefix: IdPrefix) => string;

/**
 * Prefixed, time-sortable ids (`run_01JD...`). Monotonic within a process so that ids minted in the same
 * millisecond still sort in creation order, which list pagination relies on.
 */
export function createIdFactory(now: () => number = Date.now): IdFactory {
  const ulid = monotonicFactory(pooledRandom());
  return (prefix) => `${prefix}_${ulid(now()).toLowerCase()}`;
}

/**
 * ulid's default source makes one getRandomValues call per character, 16 per id, and every request mints an id;
 * drawing the same crypto-random bytes from a 4 KiB pool makes that one call per 256 ids.
 */
function pooledRandom(): () => number {
  const pool = new Uint8Array(4096);
  let at = pool.length;
  return () => {
    if (at === pool.length) {
      randomFillSync(pool);
      at = 0;
    }
    return pool[at++]! / 256;
  };
}

const ID_BODY = /^[0-9a-hjkmnp-tv-z]{26}$/;

export function isId(prefix: IdPrefix, value: string): boolean {
  return value.startsWith(`${prefix}_`) && ID_BODY.test(value.slice(prefix.length + 1));
}
