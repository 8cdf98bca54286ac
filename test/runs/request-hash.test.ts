import { describe, expect, it } from 'vitest';
import { requestHash } from '../../src/runs/request-hash.js';

describe('requestHash', () => {
  it('is a SHA-256 in hex', () => {
    expect(requestHash({ a: 1 })).toMatch(/^[0-9a-f]{64}$/);
  });

  it('ignores member order, at every depth', () => {
    const a = { prompt: 'p', inputs: { x: 1, y: { b: 2, a: 1 } }, model: 'haiku' };
    const b = { model: 'haiku', inputs: { y: { a: 1, b: 2 }, x: 1 }, prompt: 'p' };
    expect(requestHash(a)).toBe(requestHash(b));
  });

  it('ignores members that are undefined', () => {
    expect(requestHash({ prompt: 'p', name: undefined })).toBe(requestHash({ prompt: 'p' }));
  });

  it('tells apart different values, array orders, types and nesting', () => {
    const hashes = [
      { prompt: 'p' },
      { prompt: 'q' },
      { prompt: 'p', name: null },
      { list: [1, 2] },
      { list: [2, 1] },
      { n: 1 },
      { n: '1' },
      { a: { b: 1 } },
      { 'a.b': 1 },
      { a: '{"b":1}' },
    ].map(requestHash);
    expect(new Set(hashes).size).toBe(hashes.length);
  });
});
