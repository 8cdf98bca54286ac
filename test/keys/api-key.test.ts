import { createHash } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';

// Observe the comparison the module makes, without changing it: every secret check must go through timingSafeEqual.
const timingSafeEqual = vi.hoisted(() => ({ calls: 0 }));
vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:crypto')>();
  return {
    ...real,
    timingSafeEqual: (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
      timingSafeEqual.calls += 1;
      return real.timingSafeEqual(a, b);
    },
  };
});

const { hashSecret, mintKey, parseKey, secretMatches } = await import('../../src/keys/api-key.js');

const KEY_ID = 'key_01jd0000000000000000000000';

describe('mintKey', () => {
  it('makes ek_<id body>_<43 url-safe characters>, with the SHA-256 of the secret', () => {
    const k = mintKey(KEY_ID);
    expect(k.token).toMatch(/^ek_01jd0000000000000000000000_[A-Za-z0-9_-]{43}$/);
    expect(k.token.endsWith(k.secret)).toBe(true);
    expect(k.hash).toEqual(createHash('sha256').update(k.secret).digest());
    expect(k.hash).toHaveLength(32);
  });

  it('never makes the same secret twice', () => {
    const secrets = new Set(Array.from({ length: 200 }, () => mintKey(KEY_ID).secret));
    expect(secrets.size).toBe(200);
  });
});

describe('parseKey', () => {
  it('finds the key id and secret of a minted key', () => {
    const k = mintKey(KEY_ID);
    expect(parseKey(k.token)).toEqual({ keyId: KEY_ID, secret: k.secret, livemode: true });
  });

  it('tells a test-mode key (ek_test_...) by its prefix', () => {
    const k = mintKey(KEY_ID, false);
    expect(k.token).toMatch(/^ek_test_/);
    expect(parseKey(k.token)).toEqual({ keyId: KEY_ID, secret: k.secret, livemode: false });
  });

  it.each([
    ['empty', ''],
    ['another prefix', `sk_01jd0000000000000000000000_${'a'.repeat(43)}`],
    ['a short id', `ek_01jd_${'a'.repeat(43)}`],
    ['an upper-case id', `ek_01JD0000000000000000000000_${'a'.repeat(43)}`],
    ['a short secret', `ek_01jd0000000000000000000000_${'a'.repeat(42)}`],
    ['a long secret', `ek_01jd0000000000000000000000_${'a'.repeat(44)}`],
    ['a secret with other characters', `ek_01jd0000000000000000000000_${'a'.repeat(42)}=`],
    ['surrounding space', ` ek_01jd0000000000000000000000_${'a'.repeat(43)}`],
    ['a trailing newline', `ek_01jd0000000000000000000000_${'a'.repeat(43)}\n`],
    ['another mode', `ek_demo_01jd0000000000000000000000_${'a'.repeat(43)}`],
  ])('refuses %s', (_name, token) => {
    expect(parseKey(token)).toBeNull();
  });
});

describe('secretMatches', () => {
  it('is true only for the secret whose hash is stored, compared with timingSafeEqual', () => {
    const k = mintKey(KEY_ID);
    const before = timingSafeEqual.calls;
    expect(secretMatches(k.secret, k.hash)).toBe(true);
    expect(secretMatches(mintKey(KEY_ID).secret, k.hash)).toBe(false);
    expect(secretMatches(`${k.secret.slice(0, -1)}${k.secret.endsWith('A') ? 'B' : 'A'}`, k.hash)).toBe(false);
    expect(timingSafeEqual.calls - before).toBe(3);
  });

  it('is false, without throwing, for a stored hash of another length', () => {
    const k = mintKey(KEY_ID);
    expect(secretMatches(k.secret, k.hash.subarray(0, 16))).toBe(false);
    expect(secretMatches(k.secret, Buffer.alloc(0))).toBe(false);
  });

  it('hashes with SHA-256', () => {
    expect(hashSecret('abc').toString('hex')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
