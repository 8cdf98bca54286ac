import { describe, expect, it } from 'vitest';
import { createIdFactory, idBoundAt, idTimeMs, isId } from '../../src/ids.js';

describe('createIdFactory', () => {
  it('mints prefixed ULIDs in lower case whose first ten digits are the time in milliseconds', () => {
    const ids = createIdFactory(() => 1_795_420_800_123);
    const id = ids('run');
    expect(isId('run', id)).toBe(true);
    expect(id).toMatch(/^run_[0-9a-hjkmnp-tv-z]{26}$/);
    // Crockford base32 of 1795420800123, as any ULID decoder reads it.
    const time = [...id.slice(4, 14)].reduce((n, c) => n * 32 + '0123456789abcdefghjkmnpqrstvwxyz'.indexOf(c), 0);
    expect(time).toBe(1_795_420_800_123);
  });

  it('sorts ids in creation order within one millisecond, across milliseconds, and while the clock goes back', () => {
    const times = [5_000, 5_000, 5_000, 5_001, 5_001, 4_000, 4_000, 6_000];
    let at = 0;
    const ids = createIdFactory(() => times[at++]!);
    const minted = times.map(() => ids('req'));
    expect([...minted].sort()).toEqual(minted);
    expect(new Set(minted).size).toBe(minted.length);
  });

  it('keeps incrementing across digits for as many ids as one millisecond may see', () => {
    const ids = createIdFactory(() => 1_000);
    const minted = Array.from({ length: 100_000 }, () => ids('evt'));
    const outOfOrder = minted.findIndex((id, i) => i > 0 && id <= minted[i - 1]!);
    expect(outOfOrder).toBe(-1);
  });

  it('draws fresh randomness for each new millisecond', () => {
    let ms = 10_000;
    const ids = createIdFactory(() => ms++);
    const randomParts = new Set(Array.from({ length: 1000 }, () => ids('run').slice(14)));
    expect(randomParts.size).toBe(1000);
  });
});

describe('idBoundAt and idTimeMs', () => {
  it('read the time back out of an id', () => {
    expect(idTimeMs(createIdFactory(() => 1_795_420_800_123)('art'))).toBe(1_795_420_800_123);
  });

  it('bound ids by time: earlier ids sort below the bound, ids of that millisecond or later do not', () => {
    let at = 0;
    const times = [9_999, 10_000, 10_000, 10_001];
    const ids = createIdFactory(() => times[at++]!);
    const [before, same1, same2, after] = times.map(() => ids('run'));
    const bound = idBoundAt('run', 10_000);
    expect([before! < bound, same1! < bound, same2! < bound, after! < bound]).toEqual([true, false, false, false]);
  });
});
