import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDaemon } from '../fixtures/test-daemon.js';
import { expectError, startApiDaemon, walkList, withStore } from './harness.js';

let d: TestDaemon;
beforeAll(async () => {
  d = await startApiDaemon();
});
afterAll(async () => {
  await d?.cleanup();
});

/** A job in the organisation of `key`, so both run endpoints can be tried. */
async function jobOf(key: string): Promise<string> {
  const project = (await d.api('POST', '/v1/projects', { name: 'quota' }, { key })).body.id;
  return (await d.api('POST', '/v1/jobs', { project_id: project, name: 'j', prompt: 'p' }, { key })).body.id;
}

async function expect402Both(key: string, code: string): Promise<void> {
  const job = await jobOf(key);
  const before = (await walkList(d, '/v1/runs', 200, key)).items.length;
  expectError(await d.api('POST', '/v1/runs', { prompt: 'x' }, { key }), 402, { type: 'quota_error', code });
  expectError(await d.api('POST', `/v1/jobs/${job}/runs`, {}, { key }), 402, { type: 'quota_error', code });
  expect((await walkList(d, '/v1/runs', 200, key)).items.length).toBe(before);
}

describe('402 before a run is accepted', () => {
  it("monthly_cap_reached when the key's monthly cap is 0", async () => {
    await expect402Both(d.createOrgWithKey('cap-zero', { monthlyCapUsd: 0 }).key, 'monthly_cap_reached');
  });

  it("monthly_cap_reached when the key's month-to-date spend has reached its cap", async () => {
    const org = d.createOrgWithKey('cap-spent', { monthlyCapUsd: 1 });
    expect((await d.api('POST', '/v1/runs', { prompt: 'x' }, { key: org.key })).status).toBe(202);
    // Spend written through the store layer: the precondition is "the key already spent its cap this month".
    withStore(d, (s) => s.spend.record({ orgId: org.orgId, keyId: org.keyId, runId: 'run_spent', usd: 1, at: new Date().toISOString() }));
    await expect402Both(org.key, 'monthly_cap_reached');
  });

  it("daily_cap_reached when the organisation's daily cap is 0", async () => {
    await expect402Both(d.createOrgWithKey('daily-zero', { dailyCapUsd: 0 }).key, 'daily_cap_reached');
  });

  it("daily_cap_reached when the organisation's spend today has reached its cap, whichever key spent it", async () => {
    const org = d.createOrgWithKey('daily-spent', { dailyCapUsd: 2 });
    withStore(d, (s) => s.spend.record({ orgId: org.orgId, keyId: null, runId: 'run_sched', usd: 2, at: new Date().toISOString() }));
    await expect402Both(org.key, 'daily_cap_reached');
  });

  it('insufficient_budget when what is left under the monthly cap cannot pay for a first model call', async () => {
    await expect402Both(d.createOrgWithKey('cap-tiny', { monthlyCapUsd: 0.001 }).key, 'insufficient_budget');
  });

  it('insufficient_budget when what is left under the daily cap cannot pay for a first model call', async () => {
    await expect402Both(d.createOrgWithKey('daily-tiny', { dailyCapUsd: 0.001 }).key, 'insufficient_budget');
  });

  it('still answers an idempotent replay of an accepted run once the cap is reached, but refuses a new one', async () => {
    const org = d.createOrgWithKey('cap-replay', { monthlyCapUsd: 1 });
    const body = { prompt: 'once', idempotency_key: 'before-the-cap' };
    const first = await d.api('POST', '/v1/runs', body, { key: org.key });
    expect(first.status).toBe(202);
    withStore(d, (s) => s.spend.record({ orgId: org.orgId, keyId: org.keyId, runId: first.body.task_id, usd: 1, at: new Date().toISOString() }));
    const replay = await d.api('POST', '/v1/runs', body, { key: org.key });
    expect(replay.status).toBe(202);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.task_id).toBe(first.body.task_id);
    expectError(await d.api('POST', '/v1/runs', { prompt: 'new', idempotency_key: 'after-the-cap' }, { key: org.key }), 402, {
      type: 'quota_error',
      code: 'monthly_cap_reached',
    });
  });

  it("insufficient_budget when what is left covers a short run's estimate but not the worst case of the first model call", async () => {
    // 0.058 USD covers a short sonnet run (billing hint's low, about 0.034 USD), but not one sonnet call of up to
    // models.max_tokens (4096) output tokens, which the engine holds before making it.
    const org = d.createOrgWithKey('first-call-short', { dailyCapUsd: 0.058 });
    const res = await d.api('POST', '/v1/runs', { prompt: 'x', model: 'sonnet' }, { key: org.key });
    expectError(res, 402, { type: 'quota_error', code: 'insufficient_budget' });
    expect(res.body.error.message).toMatch(
      /^Only 0\.058 USD is left under the organisation's daily cap, less than the 0\.0\d+ USD a run on sonnet needs before it can make its first model call: the most that call can cost \(about \d+ input tokens for its prompt, output_schema and tools, and up to 4096 output tokens, models\.max_tokens\) and 15 s of sandbox time$/,
    );
    // haiku's first call fits.
    expect((await d.api('POST', '/v1/runs', { prompt: 'x', model: 'haiku' }, { key: org.key })).status).toBe(202);
  });

  it('accepts a run when the cap leaves room for its first model call', async () => {
    const org = d.createOrgWithKey('cap-roomy', { monthlyCapUsd: 5, dailyCapUsd: 5 });
    const res = await d.api('POST', '/v1/runs', { prompt: 'x', model: 'haiku' }, { key: org.key });
    expect(res.status).toBe(202);
    expect(res.body.billing.monthly_cap_usd).toBe(5);
  });
});
