import { describe, expect, it } from 'vitest';
import { ControlGate } from '../../src/live/control-gate.js';

describe('ControlGate', () => {
  it('is open while nobody holds control', async () => {
    const gate = new ControlGate();
    await gate.pass(new AbortController().signal);
    expect(gate.holder).toBeNull();
    expect(gate.drain()).toEqual([]);
  });

  it('holds the agent while a person has control, and lets it on with what was done once handed back', async () => {
    const gate = new ControlGate();
    expect(gate.take('live link', 'ctl_a', 1_000)).toBe(true);
    let passed = false;
    const waiting = gate.pass(new AbortController().signal).then(() => (passed = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(passed).toBe(false);
    expect(gate.release(6_000, 'solved the captcha', false)).toEqual({ by: 'live link', startedAtMs: 1_000, endedAtMs: 6_000, note: 'solved the captcha', revoked: false });
    await waiting;
    expect(passed).toBe(true);
    expect(gate.drain()).toEqual([{ by: 'live link', startedAtMs: 1_000, endedAtMs: 6_000, note: 'solved the captcha', revoked: false }]);
    expect(gate.drain()).toEqual([]);
  });

  it('has one controller at a time, known by its token', () => {
    const gate = new ControlGate();
    expect(gate.take('live link', 'ctl_a', 1_000)).toBe(true);
    expect(gate.take('API key key_b', 'ctl_b', 2_000)).toBe(false);
    expect(gate.holds('ctl_a')).toBe(true);
    expect(gate.holds('ctl_b')).toBe(false);
    expect(gate.holder).toEqual({ by: 'live link', sinceMs: 1_000 });
    gate.release(3_000, null, true);
    expect(gate.holds('ctl_a')).toBe(false);
    expect(gate.release(4_000, null, false)).toBeNull();
  });

  it('lets an aborted run stop waiting', async () => {
    const gate = new ControlGate();
    gate.take('live link', 'ctl_a', 0);
    const abort = new AbortController();
    const waiting = gate.pass(abort.signal);
    abort.abort(new Error('cancelled'));
    await expect(waiting).rejects.toThrow('cancelled');
  });
});
