import { describe, expect, it } from 'vitest';
import { SecretMask } from '../../src/connections/secret-mask.js';

describe('SecretMask', () => {
  const mask = new SecretMask([
    { name: 'github', value: 'ghp_abc"def/ghi' },
    { name: 'inner', value: 'abc' + 'xyz123' },
  ]);

  it('replaces each secret with [secret:<name>], wherever it occurs', () => {
    expect(mask.text('token=ghp_abc"def/ghi; again ghp_abc"def/ghi')).toBe('token=[secret:github]; again [secret:github]');
  });

  it('also masks the forms a value takes inside JSON strings and URLs', () => {
    expect(mask.text(JSON.stringify({ t: 'ghp_abc"def/ghi' }))).toBe('{"t":"[secret:github]"}');
    expect(mask.text(`https://x.test/?t=${encodeURIComponent('ghp_abc"def/ghi')}`)).toBe('https://x.test/?t=[secret:github]');
  });

  it('masks strings anywhere in a JSON value, keys included', () => {
    expect(mask.value({ a: ['abcxyz123', { abcxyz123: 1 }], n: 2 })).toEqual({ a: ['[secret:inner]', { '[secret:inner]': 1 }], n: 2 });
  });

  it('masks a longer secret whole when a shorter one is part of it', () => {
    const nested = new SecretMask([
      { name: 'short', value: 'secret1' },
      { name: 'long', value: 'my-secret1-and-more' },
    ]);
    expect(nested.text('my-secret1-and-more / secret1')).toBe('[secret:long] / [secret:short]');
  });

  it('changes nothing without secrets', () => {
    expect(SecretMask.none.isEmpty).toBe(true);
    expect(SecretMask.none.text('abc')).toBe('abc');
  });
});
