import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolUse } from '../fixtures/scripted-anthropic.js';
import { createRun, startEngine, waitForRun, type EngineHarness } from './harness.js';

let h: EngineHarness;

beforeAll(async () => {
  h = await startEngine();
});
afterAll(async () => {
  await h?.close();
});

const PROMPT = 'What is the title of https://example.com?';

/** What the 402 says a run needs: "less than the <usd> USD a run on sonnet needs before ...". */
async function neededUsd(): Promise<number> {
  const poor = h.daemon.createOrgWithKey(`poor-${Date.now()}`, { dailyCapUsd: 0.001 });
  const res = await h.daemon.api('POST', '/v1/runs', { prompt: PROMPT, model: 'sonnet' }, { key: poor.key });
  expect(res.status).toBe(402);
  expect(res.body.error.code).toBe('insufficient_budget');
  expect(res.body.error.message).toMatch(/needs before it can make its first model call/);
  return Number(/less than the ([\d.]+) USD/.exec(res.body.error.message)![1]);
}

describe('admission and the engine agree on what a run needs to start (#10)', () => {
  it('accepts a run whose budget covers its first model call, and the engine makes that call', async () => {
    const needed = await neededUsd();
    const org = h.daemon.createOrgWithKey(`just-enough-${Date.now()}`, { dailyCapUsd: needed });
    const before = h.model.requests.length;
    h.model.script([toolUse('finish', { result: { title: 'Example Domain' }, confidence: 'high' })]);
    const runId = await createRun(h.daemon, { prompt: PROMPT, model: 'sonnet' }, org.key);
    const run = await waitForRun(h.daemon, runId, undefined, undefined, org.key);
    expect(run).toMatchObject({ status: 'succeeded', result: { title: 'Example Domain' } });
    expect(h.model.requests.length - before).toBe(1);
  });

  it('refuses, with 402 insufficient_budget, a run the engine would refuse to start', async () => {
    const needed = await neededUsd();
    const org = h.daemon.createOrgWithKey(`just-short-${Date.now()}`, { dailyCapUsd: needed - 0.000001 });
    const res = await h.daemon.api('POST', '/v1/runs', { prompt: PROMPT, model: 'sonnet' }, { key: org.key });
    expect(res.status).toBe(402);
    expect(res.body.error.code).toBe('insufficient_budget');
  });

  it('counts the output_schema in what the first call sends', async () => {
    const plain = await neededUsd();
    const poor = h.daemon.createOrgWithKey(`poor-schema-${Date.now()}`, { dailyCapUsd: 0.001 });
    const outputSchema = { type: 'object', properties: { title: { type: 'string', description: 'x'.repeat(4_000) } } };
    const res = await h.daemon.api('POST', '/v1/runs', { prompt: PROMPT, model: 'sonnet', output_schema: outputSchema }, { key: poor.key });
    const withSchema = Number(/less than the ([\d.]+) USD/.exec(res.body.error.message)![1]);
    expect(withSchema).toBeGreaterThan(plain + 4_000 * 3e-6 * 0.99);
  });
});
