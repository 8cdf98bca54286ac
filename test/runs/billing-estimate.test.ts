import { describe, expect, it } from 'vitest';
import { billingHint } from '../../src/billing/estimate.js';
import { CREDIT_USD, credits, PriceTable, roundUsd } from '../../src/billing/prices.js';
import { loadConfig } from '../../src/config/load.js';
import { tempDir } from '../fixtures/temp-dir.js';

function prices(flags: Record<string, unknown> = {}): PriceTable {
  const dir = tempDir('errand-prices-');
  try {
    return new PriceTable(loadConfig({ home: dir.path, env: {}, flags }));
  } finally {
    dir.remove();
  }
}

describe('billingHint', () => {
  it('has every member of the spec, with one credit at 0.05 USD', () => {
    const hint = billingHint(prices(), 'sonnet', 600, null);
    expect(Object.keys(hint).sort()).toEqual(['credit_usd_rate', 'estimated_cost_usd', 'estimated_credits', 'model', 'monthly_cap_usd', 'note']);
    expect(hint.model).toBe('sonnet');
    expect(hint.credit_usd_rate).toBe(0.05);
    expect(CREDIT_USD).toBe(0.05);
    expect(hint.monthly_cap_usd).toBeNull();
    expect(hint.note.length).toBeGreaterThan(0);
  });

  it('prices the short task from the configured table: 8k in, 600 out, 15 sandbox seconds', () => {
    // sonnet defaults: 3 USD / MTok in, 15 USD / MTok out, 0.00005 USD per sandbox second.
    const low = (8000 * 3 + 600 * 15) / 1e6 + 15 * 0.00005;
    expect(billingHint(prices(), 'sonnet', 600, null).estimated_cost_usd.low).toBeCloseTo(low, 9);
    const cheap = billingHint(prices({ 'billing.sonnet.input_usd_per_mtok': 0, 'billing.sonnet.output_usd_per_mtok': 0 }), 'sonnet', 600, null);
    expect(cheap.estimated_cost_usd.low).toBeCloseTo(15 * 0.00005, 9);
  });

  it('gives whole credits, rounded up from the USD figures', () => {
    for (const model of ['haiku', 'sonnet', 'opus'] as const) {
      const hint = billingHint(prices(), model, 600, 20);
      expect(hint.estimated_credits.low).toBe(Math.ceil(hint.estimated_cost_usd.low / 0.05 - 1e-9));
      expect(hint.estimated_credits.high).toBe(Math.ceil(hint.estimated_cost_usd.high / 0.05 - 1e-9));
      expect(Number.isInteger(hint.estimated_credits.low)).toBe(true);
      expect(hint.estimated_cost_usd.high).toBeGreaterThanOrEqual(hint.estimated_cost_usd.low);
      expect(hint.monthly_cap_usd).toBe(20);
    }
  });

  it('orders the models by price, and grows the high estimate with the time limit', () => {
    const p = prices();
    const [h, s, o] = (['haiku', 'sonnet', 'opus'] as const).map((m) => billingHint(p, m, 600, null));
    expect(h!.estimated_cost_usd.low).toBeLessThan(s!.estimated_cost_usd.low);
    expect(s!.estimated_cost_usd.low).toBeLessThan(o!.estimated_cost_usd.low);
    expect(billingHint(p, 'sonnet', 3600, null).estimated_cost_usd.high).toBeGreaterThan(s!.estimated_cost_usd.high);
  });
});

describe('credits and roundUsd', () => {
  it('rounds up to whole credits, without float noise at exact multiples', () => {
    expect(credits(0)).toBe(0);
    expect(credits(0.05)).toBe(1);
    expect(credits(0.15)).toBe(3);
    expect(credits(0.150001)).toBe(4);
    expect(credits(0.0001)).toBe(1);
  });

  it('keeps micro-dollar precision', () => {
    expect(roundUsd(0.1 + 0.2)).toBe(0.3);
    expect(roundUsd(1.0000004)).toBe(1);
    expect(roundUsd(1.0000006)).toBe(1.000001);
  });
});
