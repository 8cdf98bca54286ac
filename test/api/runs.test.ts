import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiResponse, TestDaemon } from '../fixtures/test-daemon.js';
import { expectError, expectInvalid, finishRun, holdRunSlot, ISO_MS, idPattern, startApiDaemon, walkList, withStore } from './harness.js';

const ACCEPTED_KEYS = ['billing', 'livemode', 'poll_url', 'status', 'task_id', 'warnings'];
const BILLING_KEYS = ['credit_usd_rate', 'estimated_cost_usd', 'estimated_credits', 'model', 'monthly_cap_usd', 'note'];
const ENVELOPE_KEYS = [
  'action_space', 'attempt', 'confidence', 'created_at', 'evidence', 'failure_code', 'failure_detail', 'failure_reason', 'files', 'finished_at', 'job_id', 'live_url', 'livemode', 'max_cost_usd', 'mode', 'model', 'name', 'object',
  'progress', 'project_id', 'result', 'sandbox', 'started_at', 'status', 'task_id', 'usage', 'waiting_for', 'warnings',
];

let d: TestDaemon;
let holder: string;
let projectId: string;
let jobId: string;

beforeAll(async () => {
  d = await startApiDaemon({ ERRAND_LIMITS_MAX_CONCURRENT_RUNS: '1', ERRAND_LIMITS_MAX_PENDING_RUNS: '1000' });
  holder = holdRunSlot(d, d.orgId);
  projectId = (await d.api('POST', '/v1/projects', { name: 'runs home' })).body.id;
  jobId = (
    await d.api('POST', '/v1/jobs', {
      project_id: projectId,
      name: 'price in city',
      prompt: 'Find the price of {{item}} in {{city}}',
      model: 'haiku',
      input_schema: { type: 'object', required: ['city'], properties: { city: { type: 'string' }, item: { type: 'string' } } },
    })
  ).body.id;
});
afterAll(async () => {
  await d?.cleanup();
});

function expectAccepted(res: ApiResponse, model: string, monthlyCap: number | null = null): string {
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  expect(Object.keys(res.body).sort()).toEqual(ACCEPTED_KEYS);
  const { task_id, status, poll_url, billing } = res.body;
  expect(task_id).toMatch(idPattern('run'));
  expect(status).toBe('queued');
  expect(poll_url).toBe(`${d.url}/v1/runs/${task_id}`);
  expect(res.headers.get('location')).toBe(poll_url);
  expect(Object.keys(billing).sort()).toEqual(BILLING_KEYS);
  expect(billing.model).toBe(model);
  expect(billing.credit_usd_rate).toBe(0.05);
  expect(billing.monthly_cap_usd).toBe(monthlyCap);
  expect(billing.note).toBeTypeOf('string');
  const { low, high } = billing.estimated_cost_usd;
  expect(low).toBeGreaterThan(0);
  expect(high).toBeGreaterThanOrEqual(low);
  expect(billing.estimated_credits).toEqual({ low: Math.ceil(low / 0.05 - 1e-9), high: Math.ceil(high / 0.05 - 1e-9) });
  return task_id;
}

async function runIds(path = '/v1/runs'): Promise<string[]> {
  return (await walkList(d, path, 200)).items.map((r) => r.task_id);
}

describe('POST /v1/runs', () => {
  it('answers 202 with task_id, status, poll_url, billing and Location', async () => {
    const res = await d.api('POST', '/v1/runs', { prompt: 'What is on example.com?' });
    const id = expectAccepted(res, 'sonnet');
    expect(res.headers.get('idempotent-replayed')).toBeNull();
    const run = await d.api('GET', `/v1/runs/${id}`);
    expect(run.body.status).toBe('queued');
  });

  it('puts a run without project_id into "API Runs" and one with project_id into that project', async () => {
    const def = (await walkList(d, '/v1/projects', 200)).items.find((p) => p.is_default)!;
    const a = expectAccepted(await d.api('POST', '/v1/runs', { prompt: 'a' }), 'sonnet');
    const b = expectAccepted(await d.api('POST', '/v1/runs', { prompt: 'b', project_id: projectId, name: 'labelled', model: 'opus' }), 'opus');
    expect((await d.api('GET', `/v1/runs/${a}`)).body.project_id).toBe(def.id);
    const got = (await d.api('GET', `/v1/runs/${b}`)).body;
    expect(got).toMatchObject({ project_id: projectId, name: 'labelled', model: 'opus', job_id: null });
  });

  it('prices the estimate by model', async () => {
    const haiku = (await d.api('POST', '/v1/runs', { prompt: 'x', model: 'haiku' })).body.billing;
    const opus = (await d.api('POST', '/v1/runs', { prompt: 'x', model: 'opus' })).body.billing;
    expect(haiku.estimated_cost_usd.low).toBeLessThan(opus.estimated_cost_usd.low);
    expect(haiku.estimated_cost_usd.high).toBeLessThan(opus.estimated_cost_usd.high);
  });

  it("reports the key's monthly cap in the billing hint", async () => {
    const other = d.createOrgWithKey('capped-hint', { monthlyCapUsd: 50 });
    const res = await d.api('POST', '/v1/runs', { prompt: 'x' }, { key: other.key });
    expectAccepted(res, 'sonnet', 50);
  });

  it('fills {{placeholders}} from inputs', async () => {
    const id = expectAccepted(await d.api('POST', '/v1/runs', { prompt: 'Weather in {{ city }} for {{who.name}}', inputs: { city: 'Lyon', who: { name: 'Ana' } } }), 'sonnet');
    expect(withStore(d, (s) => s.runs.getById(id)!.prompt)).toBe('Weather in Lyon for Ana');
  });

  it('answers 400 with param inputs.<name> for a placeholder without a value, and creates no run', async () => {
    const before = await runIds();
    expectInvalid(await d.api('POST', '/v1/runs', { prompt: 'Weather in {{city}}' }), 'inputs.city', 'missing_input');
    expectInvalid(await d.api('POST', '/v1/runs', { prompt: 'Weather in {{city}}', inputs: { town: 'x' } }), 'inputs.city', 'missing_input');
    expect(await runIds()).toEqual(before);
  });

  it('answers 400 naming the member for a missing prompt, an unknown member, a wrong type, a bad model', async () => {
    const before = await runIds();
    expectInvalid(await d.api('POST', '/v1/runs', { inputs: {} }), 'prompt', 'missing_parameter');
    expectInvalid(await d.api('POST', '/v1/runs', { prompt: 'x', temperature: 1 }), 'temperature', 'unknown_parameter');
    expectInvalid(await d.api('POST', '/v1/runs', { prompt: 'x', inputs: 'city=Paris' }), 'inputs', 'invalid_body');
    expectInvalid(await d.api('POST', '/v1/runs', { prompt: ['x'] }), 'prompt', 'invalid_body');
    expectInvalid(await d.api('POST', '/v1/runs', { prompt: 'x', model: 'claude' }), 'model', 'invalid_body');
    expectInvalid(await d.api('POST', '/v1/runs', { prompt: 'x', callback_url: 'not a url' }), 'callback_url');
    expectInvalid(await d.api('POST', '/v1/runs', { prompt: 'x', idempotency_key: 'k'.repeat(256) }), 'idempotency_key');
    expect(await runIds()).toEqual(before);
  });

  it('answers 400 invalid_output_schema for an output_schema that does not compile', async () => {
    const before = await runIds();
    expectInvalid(await d.api('POST', '/v1/runs', { prompt: 'x', output_schema: { type: 'banana' } }), 'output_schema', 'invalid_output_schema');
    expectInvalid(await d.api('POST', '/v1/runs', { prompt: 'x', output_schema: { $ref: '#/nowhere' } }), 'output_schema', 'invalid_output_schema');
    expect(await runIds()).toEqual(before);
  });

  it('answers 404 naming project_id for an unknown project', async () => {
    expectError(await d.api('POST', '/v1/runs', { prompt: 'x', project_id: 'proj_01jd0000000000000000000000' }), 404, {
      type: 'not_found_error',
      param: 'project_id',
    });
  });
});

describe('POST /v1/jobs/{id}/runs', () => {
  it('answers 202 with the job\'s model, name and project, and the prompt filled', async () => {
    const id = expectAccepted(await d.api('POST', `/v1/jobs/${jobId}/runs`, { inputs: { city: 'Oslo', item: 'coffee' } }), 'haiku');
    const run = (await d.api('GET', `/v1/runs/${id}`)).body;
    expect(run).toMatchObject({ job_id: jobId, project_id: projectId, name: 'price in city', model: 'haiku', status: 'queued' });
    expect(withStore(d, (s) => s.runs.getById(id)!.prompt)).toBe('Find the price of coffee in Oslo');
  });

  it('accepts an empty object when the job needs no inputs', async () => {
    const plain = (await d.api('POST', '/v1/jobs', { project_id: projectId, name: 'plain', prompt: 'no placeholders' })).body.id;
    expectAccepted(await d.api('POST', `/v1/jobs/${plain}/runs`, {}), 'sonnet');
  });

  it('accepts a request without any body, since every member is optional', async () => {
    const plain = (await d.api('POST', '/v1/jobs', { project_id: projectId, name: 'no body', prompt: 'no placeholders' })).body.id;
    expectAccepted(await d.api('POST', `/v1/jobs/${plain}/runs`), 'sonnet');
    expectAccepted(await d.api('POST', `/v1/jobs/${plain}/runs`, undefined, { headers: { 'content-type': 'application/json' } }), 'sonnet');
  });

  it('answers 400 inputs.<name> for a member input_schema requires, and for one of the wrong type', async () => {
    const before = await runIds();
    expectInvalid(await d.api('POST', `/v1/jobs/${jobId}/runs`, { inputs: { item: 'tea' } }), 'inputs.city', 'missing_input');
    expectInvalid(await d.api('POST', `/v1/jobs/${jobId}/runs`, { inputs: { city: 12, item: 'tea' } }), 'inputs.city', 'invalid_inputs');
    expectInvalid(await d.api('POST', `/v1/jobs/${jobId}/runs`, {}), 'inputs.city', 'missing_input');
    expect(await runIds()).toEqual(before);
  });

  it('answers 400 inputs.<name> for a placeholder input_schema does not require', async () => {
    expectInvalid(await d.api('POST', `/v1/jobs/${jobId}/runs`, { inputs: { city: 'Oslo' } }), 'inputs.item', 'missing_input');
  });

  it('answers 400 for project_id, prompt or model (fixed by the job) and for an invalid output_schema override', async () => {
    expectInvalid(await d.api('POST', `/v1/jobs/${jobId}/runs`, { prompt: 'x', inputs: { city: 'a', item: 'b' } }), 'prompt', 'unknown_parameter');
    expectInvalid(await d.api('POST', `/v1/jobs/${jobId}/runs`, { model: 'opus', inputs: { city: 'a', item: 'b' } }), 'model', 'unknown_parameter');
    expectInvalid(
      await d.api('POST', `/v1/jobs/${jobId}/runs`, { inputs: { city: 'a', item: 'b' }, output_schema: { type: 'x' } }),
      'output_schema',
      'invalid_output_schema',
    );
  });

  it('answers 404 for an unknown job', async () => {
    expectError(await d.api('POST', '/v1/jobs/job_01jd0000000000000000000000/runs', {}), 404, { type: 'not_found_error' });
  });
});

describe('idempotency_key', () => {
  it('answers a replay with the original run and Idempotent-Replayed: true, member order ignored', async () => {
    const body = { prompt: 'once {{a}}', inputs: { a: '1', b: 2 }, idempotency_key: 'order-42' };
    const first = await d.api('POST', '/v1/runs', body);
    const id = expectAccepted(first, 'sonnet');
    const before = await runIds();
    const replay = await d.api('POST', '/v1/runs', { idempotency_key: 'order-42', inputs: { b: 2, a: '1' }, prompt: 'once {{a}}' });
    expect(replay.status).toBe(202);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get('location')).toBe(first.body.poll_url);
    expect(await runIds()).toEqual(before);
    expect(before).toContain(id);
  });

  it('answers 409 idempotency_key_reused for the same key with a different body, creating nothing', async () => {
    await d.api('POST', '/v1/runs', { prompt: 'first', idempotency_key: 'reused' });
    const before = await runIds();
    expectError(await d.api('POST', '/v1/runs', { prompt: 'second', idempotency_key: 'reused' }), 409, {
      type: 'conflict_error',
      code: 'idempotency_key_reused',
    });
    expect(await runIds()).toEqual(before);
  });

  it('scopes keys to the endpoint and job', async () => {
    const a = (await d.api('POST', '/v1/runs', { prompt: 'p', idempotency_key: 'shared' })).body.task_id;
    const b = (await d.api('POST', `/v1/jobs/${jobId}/runs`, { inputs: { city: 'x', item: 'y' }, idempotency_key: 'shared' })).body.task_id;
    expect(a).toMatch(idPattern('run'));
    expect(b).toMatch(idPattern('run'));
    expect(b).not.toBe(a);
    const replay = await d.api('POST', `/v1/jobs/${jobId}/runs`, { inputs: { city: 'x', item: 'y' }, idempotency_key: 'shared' });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.task_id).toBe(b);
  });

  it('scopes keys to the organisation', async () => {
    const other = d.createOrgWithKey('idem-other');
    const mine = (await d.api('POST', '/v1/runs', { prompt: 'p', idempotency_key: 'org-scoped' })).body.task_id;
    const theirs = await d.api('POST', '/v1/runs', { prompt: 'p', idempotency_key: 'org-scoped' }, { key: other.key });
    expect(theirs.status).toBe(202);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.task_id).not.toBe(mine);
  });
});

describe('GET /v1/runs/{id}', () => {
  it('answers the task envelope of a queued run', async () => {
    const id = (await d.api('POST', '/v1/runs', { prompt: 'envelope', name: 'env' })).body.task_id;
    const res = await d.api('GET', `/v1/runs/${id}`);
    expect(res.status).toBe(200);
    const env = res.body;
    expect(Object.keys(env).sort()).toEqual(ENVELOPE_KEYS);
    expect(env).toMatchObject({
      task_id: id,
      object: 'run',
      status: 'queued',
      live_url: null,
      result: null,
      confidence: null,
      evidence: null,
      failure_reason: null,
      failure_code: null,
      failure_detail: null,
      max_cost_usd: null,
      warnings: [],
      finished_at: null,
      started_at: null,
      name: 'env',
      model: 'sonnet',
      job_id: null,
    });
    expect(Object.keys(env.usage).sort()).toEqual(['cost_usd', 'duration_ms', 'input_tokens', 'output_tokens']);
    expect(env.usage).toEqual({ duration_ms: null, input_tokens: 0, output_tokens: 0, cost_usd: 0 });
    expect(env.created_at).toMatch(ISO_MS);
  });

  it('answers 404 for an unknown id', async () => {
    expectError(await d.api('GET', '/v1/runs/run_01jd0000000000000000000000'), 404, { type: 'not_found_error', code: 'resource_missing' });
  });
});

describe('GET /v1/runs', () => {
  it('lists newest first and pages with cursor without duplicates or gaps', async () => {
    const created: string[] = [];
    for (let i = 0; i < 7; i++) created.push((await d.api('POST', '/v1/runs', { prompt: `page ${i}` })).body.task_id);
    const { pages, items } = await walkList(d, '/v1/runs', 3);
    const ids = items.map((r) => r.task_id);
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort().reverse()).toEqual(ids);
    expect(ids.slice(0, 7)).toEqual([...created].reverse());
    expect(ids).toContain(holder);
    expect(ids).toEqual(await runIds());
    for (const r of items) expect(Object.keys(r).sort()).toEqual(ENVELOPE_KEYS);
  });

  it('filters by job_id', async () => {
    const job = (await d.api('POST', '/v1/jobs', { project_id: projectId, name: 'filter', prompt: 'p' })).body.id;
    const mine = [];
    for (let i = 0; i < 4; i++) mine.push((await d.api('POST', `/v1/jobs/${job}/runs`, {})).body.task_id);
    await d.api('POST', '/v1/runs', { prompt: 'not of the job' });
    const { items } = await walkList(d, `/v1/runs?job_id=${job}`, 3);
    expect(items.map((r) => r.task_id)).toEqual(mine.reverse());
    expect(items.every((r) => r.job_id === job)).toBe(true);
  });

  it('defaults limit to 50 and answers 400 naming limit outside 1..200', async () => {
    for (let i = 0; i < 3; i++) await d.api('POST', '/v1/runs', { prompt: `fill ${i}` });
    const count = (await runIds()).length;
    const res = await d.api('GET', '/v1/runs');
    expect(res.body.data.length).toBe(Math.min(50, count));
    expect(res.body.has_more).toBe(count > 50);
    expectInvalid(await d.api('GET', '/v1/runs?limit=201'), 'limit');
    expectInvalid(await d.api('GET', '/v1/runs?limit=0'), 'limit');
    expectInvalid(await d.api('GET', '/v1/runs?limit=ten'), 'limit');
    expect((await d.api('GET', '/v1/runs?limit=200')).status).toBe(200);
  });
});

describe('POST /v1/runs/{id}/cancel', () => {
  it('cancels a queued run (200 with the envelope), and answers 200 again for a cancelled one', async () => {
    const id = (await d.api('POST', '/v1/runs', { prompt: 'cancel me' })).body.task_id;
    const res = await d.api('POST', `/v1/runs/${id}/cancel`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(ENVELOPE_KEYS);
    expect(res.body.status).toBe('cancelled');
    expect(res.body.finished_at).toMatch(ISO_MS);
    const again = await d.api('POST', `/v1/runs/${id}/cancel`);
    expect(again.status).toBe(200);
    expect(again.body.status).toBe('cancelled');
    expect(again.body.finished_at).toBe(res.body.finished_at);
    expect((await d.api('GET', `/v1/runs/${id}`)).body.status).toBe('cancelled');
  });

  it('answers 409 run_not_cancellable for a succeeded or failed run, which stays as it was', async () => {
    for (const to of ['succeeded', 'failed'] as const) {
      const id = (await d.api('POST', '/v1/runs', { prompt: `will be ${to}` })).body.task_id;
      finishRun(d, id, to);
      expectError(await d.api('POST', `/v1/runs/${id}/cancel`), 409, { type: 'conflict_error', code: 'run_not_cancellable' });
      expect((await d.api('GET', `/v1/runs/${id}`)).body.status).toBe(to);
    }
  });

  it('answers 404 for an unknown run', async () => {
    expectError(await d.api('POST', '/v1/runs/run_01jd0000000000000000000000/cancel'), 404, { type: 'not_found_error' });
  });
});
