import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roundUsd } from '../../src/billing/prices.js';
import { dataPaths } from '../../src/runtime/paths.js';
import { openStore } from '../../src/store/store.js';
import { hold, toolUse } from '../fixtures/scripted-anthropic.js';
import { createRun, sandboxDirsOf, startEngine, until, type EngineHarness } from './harness.js';

let h: EngineHarness;

beforeAll(async () => {
  // Sandbox time at a price that makes every second of it visible in cost_usd.
  h = await startEngine({ env: { ERRAND_BILLING_SANDBOX_USD_PER_S: '0.01' } });
});
afterAll(async () => {
  await h?.close();
});

function spentOn(runId: string): number {
  const store = openStore(dataPaths(h.daemon.home).database);
  try {
    return roundUsd(store.spend.forRun(runId));
  } finally {
    store.close();
  }
}

function attemptEnded(runId: string): boolean {
  return h.daemon
    .logs()
    .split('\n')
    .some((line) => line.includes(runId) && line.includes('"run attempt ended"'));
}

describe('a run cancelled while running', () => {
  it('answers the cancel with its final envelope: it never changes after, and its progress says it was cancelled', async () => {
    const held = hold(toolUse('finish', { result: { never: true } }));
    // A process left running in the sandbox makes its removal take a while after the cancel.
    h.model.script([toolUse('run_code', { language: 'bash', code: 'sleep 600 &' }), held]);
    const runId = await createRun(h.daemon, { prompt: 'Wait for me' });
    await held.arrived;

    const cancelled = await h.daemon.api('POST', `/v1/runs/${runId}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', progress: { last_action: 'cancelled' } });
    // The sandbox time up to the cancel is billed in the cancelled envelope.
    expect(cancelled.body.usage.cost_usd).toBeGreaterThan(0);

    await held.disconnected;
    await until('the sandbox to be removed', () => sandboxDirsOf(h.daemon.home, runId).length === 0);
    await until('the attempt to end', () => attemptEnded(runId));
    const later = await h.daemon.api('GET', `/v1/runs/${runId}`);
    expect(later.body).toEqual(cancelled.body);
    // Nothing was billed after the cancel either.
    expect(spentOn(runId)).toBe(cancelled.body.usage.cost_usd);
  });
});
