import { describe, expect, it } from 'vitest';
import { InboundLimits } from '../../../src/mail/inbound/inbound-limits.js';

describe('InboundLimits', () => {
  it('holds each address to its share of open connections', () => {
    const limits = new InboundLimits(2, 100);
    expect([limits.connect('10.0.0.1'), limits.connect('10.0.0.1'), limits.connect('10.0.0.1')]).toEqual([true, true, false]);
    expect(limits.connect('10.0.0.2')).toBe(true);
    limits.disconnect('10.0.0.1');
    expect(limits.connect('10.0.0.1')).toBe(true);
  });

  it('lets an address send its per-minute allowance at once, then one more as each share of a minute passes', () => {
    let now = 0;
    const limits = new InboundLimits(10, 60, () => now);
    for (let i = 0; i < 60; i++) expect(limits.takeMessage('10.0.0.1')).toBe(true);
    expect(limits.takeMessage('10.0.0.1')).toBe(false);
    expect(limits.takeMessage('10.0.0.2')).toBe(true);
    now += 999;
    expect(limits.takeMessage('10.0.0.1')).toBe(false);
    now += 1;
    expect(limits.takeMessage('10.0.0.1')).toBe(true);
    expect(limits.takeMessage('10.0.0.1')).toBe(false);
  });
});
