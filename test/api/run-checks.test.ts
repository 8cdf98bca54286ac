/**
 * Runs that cannot work are named when they are created, and can be checked without being created (issue 21, item
 * 14): the 202's `warnings`, the failure_detail that names every reason, and POST /v1/runs/check.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDaemon } from '../fixtures/test-daemon.js';
import { expectError, expectInvalid, startApiDaemon, walkList } from './harness.js';

let d: TestDaemon;
beforeAll(async () => {
  d = await startApiDaemon();
});
afterAll(async () => {
  await d?.cleanup();
});

const NO_PROVIDER = {
  code: 'no_model_provider',
  message: expect.stringMatching(/^As things stand the run will fail at once with auth_required: no model provider is configured on the daemon: ANTHROPIC_API_KEY is not set/),
  param: null,
};

/** An organisation with a disabled token connection `off` and one without a secret, `empty`. */
async function orgWithBrokenConnections(name: string): Promise<string> {
  const { key } = d.createOrgWithKey(name);
  expect((await d.api('POST', '/v1/connections', { name: 'off', type: 'token', secret: 'a-secret-value', is_enabled: false }, { key })).status).toBe(201);
  expect((await d.api('POST', '/v1/connections', { name: 'empty', type: 'token' }, { key })).status).toBe(201);
  return key;
}

async function finished(runId: string, key: string): Promise<any> {
  for (let i = 0; i < 200; i++) {
    const run = (await d.api('GET', `/v1/runs/${runId}`, undefined, { key })).body;
    if (run.status === 'failed' || run.status === 'succeeded' || run.status === 'cancelled') return run;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`run ${runId} did not end`);
}

async function runCount(key: string): Promise<number> {
  return (await walkList(d, '/v1/runs', 200, key)).items.length;
}

describe('POST /v1/runs warnings', () => {
  it('names every reason the run will fail at once: the missing model provider and each named connection it cannot use', async () => {
    const key = await orgWithBrokenConnections('warned');
    const res = await d.api('POST', '/v1/runs', { prompt: 'Use them', connections: ['nosuch', 'off', 'empty'] }, { key });
    expect(res.status).toBe(202);
    expect(res.body.warnings).toEqual([
      NO_PROVIDER,
      { code: 'connection_unusable', message: expect.stringContaining("the run needs the connection 'nosuch', which does not exist"), param: 'connections' },
      { code: 'connection_unusable', message: expect.stringContaining("the run needs the connection 'off', which is disabled"), param: 'connections' },
      { code: 'connection_unusable', message: expect.stringContaining("the run needs the connection 'empty', which has no secret"), param: 'connections' },
    ]);

    const run = await finished(res.body.task_id, key);
    expect(run).toMatchObject({ status: 'failed', failure_reason: 'auth_required' });
    expect(run.failure_detail).toMatch(/^no model provider is configured on the daemon: ANTHROPIC_API_KEY is not set/);
    for (const name of ['nosuch', 'off', 'empty']) expect(run.failure_detail).toContain(`Also, the run needs the connection '${name}', which`);
  });

  it('has only the daemon-wide warning for a run that names no connection', async () => {
    const res = await d.api('POST', '/v1/runs', { prompt: 'Plain' });
    expect(res.body.warnings).toEqual([NO_PROVIDER]);
  });

  it("warns when the estimate's high end is more than what is left under the key's monthly cap, and not without a cap", async () => {
    const capped = d.createOrgWithKey('capped-1', { monthlyCapUsd: 1 });
    const res = await d.api('POST', '/v1/runs', { prompt: 'A long task', model: 'opus' }, { key: capped.key });
    expect(res.status).toBe(202);
    const high = res.body.billing.estimated_cost_usd.high;
    expect(high).toBeGreaterThan(1);
    expect(res.body.warnings).toContainEqual({
      code: 'estimate_exceeds_cap',
      message: `A long run on opus may cost up to ${high} USD (billing.estimated_cost_usd.high), more than the 1 USD left under the key's monthly cap (monthly_cap_usd): the engine stops the run (timeout) before a model call that would cross it`,
      param: null,
    });

    const uncapped = await d.api('POST', '/v1/runs', { prompt: 'A long task', model: 'opus' });
    expect(uncapped.body.warnings.map((w: { code: string }) => w.code)).not.toContain('estimate_exceeds_cap');
  });

  it('answers a replay of a run that has ended without warnings: it has nothing left to warn of', async () => {
    const body = { prompt: 'Once', idempotency_key: 'warn-replay' };
    const first = await d.api('POST', '/v1/runs', body);
    expect(first.body.warnings).toEqual([NO_PROVIDER]);
    await finished(first.body.task_id, d.key);
    const replay = await d.api('POST', '/v1/runs', body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toMatchObject({ task_id: first.body.task_id, status: 'failed', warnings: [] });
  });
});

describe('POST /v1/runs/check', () => {
  it('answers what POST /v1/runs would, its billing and warnings, and creates nothing', async () => {
    const key = await orgWithBrokenConnections('checked');
    const before = await runCount(key);
    const res = await d.api('POST', '/v1/runs/check', { prompt: 'Use it', connections: ['nosuch'], model: 'opus' }, { key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      object: 'run_check',
      livemode: true,
      replay_of: null,
      billing: expect.objectContaining({ model: 'opus', estimated_cost_usd: expect.objectContaining({ low: expect.any(Number) }) }),
      warnings: [NO_PROVIDER, { code: 'connection_unusable', message: expect.stringContaining("'nosuch', which does not exist"), param: 'connections' }],
    });
    expect(await runCount(key)).toBe(before);
  });

  it('refuses as POST /v1/runs would: a bad body, a cap reached, a project of another organisation', async () => {
    expectInvalid(await d.api('POST', '/v1/runs/check', { prompt: 'x', promt: 'typo' }), 'promt', 'unknown_parameter');
    const broke = d.createOrgWithKey('check-broke', { monthlyCapUsd: 0 });
    expectError(await d.api('POST', '/v1/runs/check', { prompt: 'x' }, { key: broke.key }), 402, { type: 'quota_error', code: 'monthly_cap_reached' });
    const foreign = (await d.api('GET', '/v1/projects')).body.data[0].id;
    expectError(await d.api('POST', '/v1/runs/check', { prompt: 'x', project_id: foreign }, { key: broke.key }), 404, { type: 'not_found_error', param: 'project_id' });
  });

  it('names the run an idempotency key would answer again, refuses the key with another body, and records no key itself', async () => {
    const { key } = d.createOrgWithKey('check-idem');
    const fresh = await d.api('POST', '/v1/runs/check', { prompt: 'Once', idempotency_key: 'k1' }, { key });
    expect(fresh.body.replay_of).toBeNull();
    // The check recorded nothing: the same key with another body still creates a run.
    const created = await d.api('POST', '/v1/runs', { prompt: 'Other', idempotency_key: 'k1' }, { key });
    expect(created.status).toBe(202);
    const again = await d.api('POST', '/v1/runs/check', { prompt: 'Other', idempotency_key: 'k1' }, { key });
    expect(again.body).toMatchObject({ object: 'run_check', replay_of: created.body.task_id });
    expectError(await d.api('POST', '/v1/runs/check', { prompt: 'Once', idempotency_key: 'k1' }, { key }), 409, { type: 'conflict_error', code: 'idempotency_key_reused' });
  });
});

describe('POST /v1/jobs/{id}/runs/check', () => {
  it("checks a job's run: its inputs against the job's input_schema, and the connections the job names", async () => {
    const { key } = d.createOrgWithKey('check-job');
    const project = (await d.api('GET', '/v1/projects', undefined, { key })).body.data[0].id;
    const job = (
      await d.api(
        'POST',
        '/v1/jobs',
        { project_id: project, name: 'needs', prompt: 'Price of {{item}}', connections: ['crm'], input_schema: { type: 'object', required: ['item'], properties: { item: { type: 'string' } } } },
        { key },
      )
    ).body.id;
    expectInvalid(await d.api('POST', `/v1/jobs/${job}/runs/check`, {}, { key }), 'inputs.item', 'missing_input');
    const ok = await d.api('POST', `/v1/jobs/${job}/runs/check`, { inputs: { item: 'tea' } }, { key });
    expect(ok.status).toBe(200);
    expect(ok.body.warnings).toContainEqual({ code: 'connection_unusable', message: expect.stringContaining("'crm', which does not exist"), param: 'connections' });
    expect(await runCount(key)).toBe(0);
  });
});
