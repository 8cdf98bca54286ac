import { describe, expect, it } from 'vitest';
import { PurgePace } from '../../src/retention/purge-pace.js';

describe('the pace of a retention purge', () => {
  it('rests the quiet factor times as long as a batch took, at least a millisecond', () => {
    const pace = new PurgePace(2);
    expect(pace.restMs(3)).toBe(6);
    expect(pace.restMs(0.1)).toBe(1);
  });

  it('rests twice as long after each rest the daemon kept busy, up to eight times the quiet factor', () => {
    const pace = new PurgePace(2);
    const rests: number[] = [];
    for (let i = 0; i < 5; i++) {
      pace.observed(0.9);
      rests.push(pace.restMs(4));
    }
    expect(rests).toEqual([16, 32, 64, 64, 64]);
  });

  it('comes back to the quiet factor, halving, once the daemon is quiet again', () => {
    const pace = new PurgePace(2);
    for (let i = 0; i < 5; i++) pace.observed(1);
    const rests: number[] = [];
    for (let i = 0; i < 4; i++) {
      pace.observed(0.1);
      rests.push(pace.restMs(4));
    }
    expect(rests).toEqual([32, 16, 8, 8]);
  });

  it('counts a rest as busy only when other work held the event loop for more than half of it', () => {
    const pace = new PurgePace(2);
    pace.observed(0.5);
    expect(pace.restMs(4)).toBe(8);
    pace.observed(0.51);
    expect(pace.restMs(4)).toBe(16);
  });
});
