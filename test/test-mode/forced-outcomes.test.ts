import { describe, expect, it } from 'vitest';
import { forcedOutcome, MAX_SLOW_S, slowCapWarning } from '../../src/test-mode/forced-outcomes.js';

describe('errand_test=slow', () => {
  it('waits 10 s without a number, and the seconds it names up to the cap', () => {
    expect(forcedOutcome('x errand_test=slow', {}).outcome).toEqual({ kind: 'slow', seconds: 10, asked: 10 });
    expect(forcedOutcome('x errand_test=slow_45', {}).outcome).toEqual({ kind: 'slow', seconds: 45, asked: 45 });
    expect(forcedOutcome('x errand_test=slow_60', {}).outcome).toEqual({ kind: 'slow', seconds: 60, asked: 60 });
  });

  it('cuts a longer wait to 60 s, keeping what was asked for the warning that names the cap', () => {
    expect(MAX_SLOW_S).toBe(60);
    const { outcome, unknown } = forcedOutcome('x', { site: 'https://shop.example/?errand_test=slow_300' });
    expect(outcome).toEqual({ kind: 'slow', seconds: 60, asked: 300 });
    expect(unknown).toEqual([]);
    expect(slowCapWarning(300)).toBe('test mode: errand_test=slow_300 asks for 300 s; a test-mode run waits at most 60 s, so this one waited 60 s');
    expect(forcedOutcome('x errand_test=slow_99999999999999999999', {}).outcome).toMatchObject({ kind: 'slow', seconds: 60 });
  });

  it('takes slow_0 for a typo, as before', () => {
    expect(forcedOutcome('x errand_test=slow_0', {})).toEqual({ outcome: { kind: 'succeed', confidence: 'high' }, unknown: ['errand_test=slow_0'] });
  });
});
