import { randomFillSync } from 'node:crypto';

export type IdPrefix = 'org' | 'key' | 'proj' | 'job' | 'run' | 'conn' | 'msg' | 'evt' | 'whd' | 'req' | 'step' | 'art' | 'fir' | 'mcpc' | 'mcpg' | 'clk' | 'inb' | 'att' | 'hr' | 'file' | 'rcp' | 'wp' | 'eval' | 'evc' | 'prf';

export type IdFactory = (prefix: IdPrefix) => string;

/** Crockford's base32, lower case, as ULIDs use it. */
const DIGITS = '0123456789abcdefghjkmnpqrstvwxyz';
const TIME_DIGITS = 10;
/** The 16 random digits, kept as 8 pairs of digits (values 0-1023), each written with one table lookup. */
const RANDOM_PAIRS = 8;
const PAIR_VALUES = 1024;
const PAIRS = Array.from({ length: PAIR_VALUES }, (_, n) => DIGITS[n >> 5]! + DIGITS[n & 31]!);

/**
 * Prefixed, time-sortable ids (`run_01jd...`): the body is a ULID in lower case, 10 digits of milliseconds and 16
 * of randomness. Monotonic within a process, as ULID's monotonic mode specifies: ids minted in the same
 * millisecond (or while the clock stands behind the last one) increment the previous randomness, so they still
 * sort in creation order, which list pagination relies on.
 *
 * Written out rather than taken from the `ulid` package because every request mints an id: that package builds
 * each id a character at a time from both ends and re-encodes the time on every call; this encodes the time once
 * per millisecond, draws randomness from a pool, and writes two digits per table lookup.
 */
export function createIdFactory(now: () => number = Date.now): IdFactory {
  const random = new Uint16Array(RANDOM_PAIRS);
  const pool = new Uint16Array(2048);
  let poolAt = pool.length;
  let lastMs = -1;
  let time = '';

  const fresh = (): void => {
    if (poolAt + RANDOM_PAIRS > pool.length) {
      randomFillSync(pool);
      poolAt = 0;
    }
    // 65536 is a multiple of 1024, so the low ten bits of a uniform 16-bit value are a uniform pair of digits.
    for (let i = 0; i < RANDOM_PAIRS; i++) random[i] = pool[poolAt++]! & (PAIR_VALUES - 1);
  };
  const increment = (): void => {
    for (let i = RANDOM_PAIRS - 1; i >= 0; i--) {
      if (random[i] !== PAIR_VALUES - 1) {
        random[i]! += 1;
        return;
      }
      random[i] = 0;
    }
    throw new Error('id randomness exhausted within one millisecond');
  };

  return (prefix) => {
    const ms = now();
    if (ms > lastMs) {
      lastMs = ms;
      time = encodeTime(ms);
      fresh();
    } else {
      increment();
    }
    const r = random;
    return `${prefix}_${time}${PAIRS[r[0]!]}${PAIRS[r[1]!]}${PAIRS[r[2]!]}${PAIRS[r[3]!]}${PAIRS[r[4]!]}${PAIRS[r[5]!]}${PAIRS[r[6]!]}${PAIRS[r[7]!]}`;
  };
}

function encodeTime(ms: number): string {
  let out = '';
  for (let i = 0; i < TIME_DIGITS; i++) {
    out = DIGITS[ms % 32]! + out;
    ms = Math.floor(ms / 32);
  }
  return out;
}

/**
 * The smallest id of `prefix` minted at `ms`: every id minted earlier sorts before it, every id minted at or after
 * it does not. Retention finds what is older than a time by this bound, through the primary key.
 */
export function idBoundAt(prefix: IdPrefix, ms: number): string {
  return `${prefix}_${encodeTime(ms)}${'0'.repeat(RANDOM_PAIRS * 2)}`;
}

/** When an id was minted, in milliseconds (its first ten digits). */
export function idTimeMs(id: string): number {
  const body = id.slice(id.indexOf('_') + 1, id.indexOf('_') + 1 + TIME_DIGITS);
  let ms = 0;
  for (const c of body) ms = ms * 32 + DIGITS.indexOf(c);
  return ms;
}

const ID_BODY = /^[0-9a-hjkmnp-tv-z]{26}$/;

export function isId(prefix: IdPrefix, value: string): boolean {
  return value.startsWith(`${prefix}_`) && ID_BODY.test(value.slice(prefix.length + 1));
}
