/**
 * Test mode (issue 25; docs/api.md, Test mode) through the real daemon, whose live engine could reach a model (the
 * scripted one, which counts its requests): test keys, `livemode`, the isolation of the two modes, runs that call no
 * model and end with a result generated from their output_schema, every forced outcome, and what behaves as live
 * (webhooks, events, idempotency, the caps' 402 and the 429 of max_pending_runs).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserSchemas } from '../../src/runs/user-schemas.js';
import { FORCED_FAILURES } from '../../src/test-mode/forced-outcomes.js';
import { FAILURE_REASONS } from '../../src/vocabulary/run-outcomes.js';
import { WebhookReceiver, signingSecretOf } from '../fixtures/webhook-receiver.js';
import { createRun, startEngine, until, waitForRun, type EngineHarness } from '../engine/harness.js';
import { expectError } from '../api/harness.js';
import { OUTPUT_SCHEMAS } from './output-schemas.js';

const MAX_PENDING = 25;
let h: EngineHarness;
let test: { key: string; orgId: string; keyId: string };
let receiver: WebhookReceiver;
const schemas = new UserSchemas({ budgetMs: 5_000 });

beforeAll(async () => {
  h = await startEngine({ env: { ERRAND_LIMITS_MAX_PENDING_RUNS: String(MAX_PENDING) } });
  test = h.daemon.createTestKey();
});
afterAll(async () => {
  await receiver?.close();
  await schemas.close();
  await h?.close();
});

const asTest = () => ({ key: test.key });

async function testRun(body: Record<string, unknown>, key = test.key): Promise<any> {
  return waitForRun(h.daemon, await createRun(h.daemon, body, key), undefined, 45_000, key);
}

describe('test keys and livemode', () => {
  it('a test key is ek_test_..., of its organisation\'s test-mode twin', () => {
    expect(test.key).toMatch(/^ek_test_[0-9a-z]{26}_[A-Za-z0-9_-]{43}$/);
    expect(test.orgId).not.toBe(h.daemon.orgId);
  });

  it('a test key passed off as live (its prefix taken away) is no key', async () => {
    const posing = test.key.replace('ek_test_', 'ek_');
    expectError(await h.daemon.api('GET', '/v1/projects', undefined, { key: posing }), 401, { type: 'authentication_error', code: 'invalid_api_key' });
  });

  it('objects say livemode false in test mode and true live, in lists and in the OpenAPI document', async () => {
    const testProjects = await h.daemon.api('GET', '/v1/projects', undefined, asTest());
    expect(testProjects.body.data.map((p: any) => p.livemode)).toEqual([false]);
    const liveProjects = await h.daemon.api('GET', '/v1/projects');
    expect(liveProjects.body.data.map((p: any) => p.livemode)).toEqual([true]);
    expect(testProjects.body).not.toHaveProperty('livemode');
    const openapi = (await h.daemon.api('GET', '/v1/openapi.json', undefined, { key: null })).body;
    const project = openapi.paths['/v1/projects/{id}'].get.responses['200'].content['application/json'].schema;
    expect(project.properties.livemode).toMatchObject({ type: 'boolean' });
    for (const path of ['/v1/events', '/v1/runs/{id}/events']) {
      const event = openapi.paths[path].get.responses['200'].content['text/event-stream'].schema;
      expect(event.properties.livemode).toMatchObject({ type: 'boolean' });
      expect(event.required).toContain('livemode');
    }
  });
});

describe('the modes cannot see each other', () => {
  let live: { project: string; job: string; run: string; connection: string; file: string };
  let testSide: { project: string; job: string; run: string; connection: string; file: string };

  async function make(key: string, tag: string) {
    const opts = { key };
    const project = (await h.daemon.api('POST', '/v1/projects', { name: `${tag} project` }, opts)).body.id;
    const job = (await h.daemon.api('POST', '/v1/jobs', { project_id: project, name: `${tag} job`, prompt: 'p' }, opts)).body.id;
    const run = (await h.daemon.api('POST', '/v1/runs', { prompt: `${tag} run` }, opts)).body.task_id;
    const connection = await h.daemon.api('POST', '/v1/connections', { name: `${tag}-site`, type: 'token', secret: `${tag}-secret-value` }, opts);
    expect(connection.status, JSON.stringify(connection.body)).toBe(201);
    const file = await fetch(`${h.daemon.url}/v1/files?name=${tag}.txt`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/octet-stream' }, body: `${tag} data` });
    expect(file.status).toBe(201);
    return { project, job, run, connection: connection.body.id, file: ((await file.json()) as any).id };
  }

  beforeAll(async () => {
    live = await make(h.daemon.key, 'live');
    testSide = await make(test.key, 'test');
  });

  const notFound = { type: 'not_found_error' };
  const probes = (ids: typeof live): [string, string][] => [
    ['GET', `/v1/projects/${ids.project}`],
    ['GET', `/v1/jobs/${ids.job}`],
    ['POST', `/v1/jobs/${ids.job}/runs`],
    ['GET', `/v1/runs/${ids.run}`],
    ['GET', `/v1/runs/${ids.run}/steps`],
    ['GET', `/v1/runs/${ids.run}/events`],
    ['GET', `/v1/runs/${ids.run}/files`],
    ['POST', `/v1/runs/${ids.run}/cancel`],
    ['GET', `/v1/connections/${ids.connection}`],
    ['GET', `/v1/files/${ids.file}`],
  ];

  it('a test key gets 404 for every live object, as for another organisation\'s', async () => {
    for (const [method, path] of probes(live)) expectError(await h.daemon.api(method, path, method === 'POST' ? {} : undefined, asTest()), 404, notFound);
  });

  it('a live key gets 404 for every test-mode object', async () => {
    for (const [method, path] of probes(testSide)) expectError(await h.daemon.api(method, path, method === 'POST' ? {} : undefined), 404, notFound);
  });

  it('lists show only the caller\'s mode', async () => {
    for (const path of ['/v1/projects', '/v1/jobs', '/v1/runs', '/v1/connections', '/v1/files']) {
      const testList = JSON.stringify((await h.daemon.api('GET', `${path}?limit=100`, undefined, asTest())).body);
      const liveList = JSON.stringify((await h.daemon.api('GET', `${path}?limit=100`)).body);
      for (const id of Object.values(live)) expect(testList).not.toContain(id);
      for (const id of Object.values(testSide)) expect(liveList).not.toContain(id);
    }
  });

  it('a live object named in a test-mode body is 404 too', async () => {
    expectError(await h.daemon.api('POST', '/v1/runs', { prompt: 'p', project_id: live.project }, asTest()), 404, { ...notFound, param: 'project_id' });
  });
});

describe('a test-mode run', () => {
  it('moves through queued and running with real steps and events, and costs nothing', async () => {
    const created = await h.daemon.api('POST', '/v1/runs', { prompt: 'Find the price of the blue widget' }, asTest());
    expect(created.status).toBe(202);
    expect(created.body).toMatchObject({ status: 'queued', livemode: false, warnings: [] });
    const run = await waitForRun(h.daemon, created.body.task_id, undefined, 45_000, test.key);
    expect(run).toMatchObject({ status: 'succeeded', confidence: 'high', livemode: false, usage: { cost_usd: 0, input_tokens: 0, output_tokens: 0 } });
    expect(run.evidence.screenshot_url).toMatch(/\/v1\/artifacts\//);
    const png = await fetch(run.evidence.screenshot_url);
    expect(png.headers.get('content-type')).toBe('image/png');
    const steps = (await h.daemon.api('GET', `/v1/runs/${run.task_id}/steps`, undefined, asTest())).body.data;
    expect(steps.map((s: any) => s.name)).toEqual(['browser', 'browser', 'finish']);
    const events = await fetch(`${h.daemon.url}/v1/runs/${run.task_id}/events`, { headers: { authorization: `Bearer ${test.key}` } });
    const frames = (await events.text()).split('\n').filter((l) => l.startsWith('data:')).map((l) => JSON.parse(l.slice(5)));
    expect(frames.map((f) => f.type)).toEqual(expect.arrayContaining(['run.status', 'run.step', 'run.completed']));
    expect(frames.filter((f) => f.type === 'run.status').map((f) => f.data.to)).toEqual(['queued', 'running', 'succeeded']);
    expect(frames.find((f) => f.type === 'run.status' && f.data.to === 'succeeded')?.data.description).toMatch(/^test mode: a result generated/);
    expect(frames.every((f) => f.livemode === false)).toBe(true);
  });

  it.each(Object.entries(OUTPUT_SCHEMAS))('ends with a result its output_schema accepts (%s), by the daemon\'s own validator', async (_name, schema) => {
    const run = await testRun({ prompt: 'Extract it', output_schema: schema });
    expect(run.status).toBe('succeeded');
    expect(run.warnings).toEqual([]);
    expect(await schemas.validate(schema, 'output_schema', run.result)).toEqual([]);
  });

  it('gives the same result for the same request', async () => {
    const body = { prompt: 'Same request', inputs: { a: 1 }, output_schema: OUTPUT_SCHEMAS['deep mix'] };
    const [first, second] = await Promise.all([testRun(body), testRun(body)]);
    expect(second.task_id).not.toBe(first.task_id);
    expect(second.result).toEqual(first.result);
    const other = await testRun({ ...body, prompt: 'Another request' });
    expect(other.result).not.toEqual(first.result);
  });

  it('with a schema no generated value satisfies, ends as a live run whose result broke it: succeeded, low, with warnings', async () => {
    const impossible = { type: 'object', required: ['n'], properties: { n: { type: 'integer', minimum: 5, maximum: 4 } } };
    const created = await h.daemon.api('POST', '/v1/runs', { prompt: 'x', output_schema: impossible }, asTest());
    const run = await waitForRun(h.daemon, created.body.task_id, undefined, 45_000, test.key);
    expect(run.status).toBe('succeeded');
    expect(run.confidence).toBe('low');
    expect(run.warnings[0]).toMatch(/^output_schema: test mode could not generate a result this schema accepts: result\.n /);
  });
});

describe('forced outcomes (errand_test=...)', () => {
  it.each(FAILURE_REASONS.map((r) => [r]))('errand_test=%s fails the run with that failure_reason and its documented detail', async (reason) => {
    const run = await testRun({ prompt: `Buy the widget errand_test=${reason}` });
    expect(run).toMatchObject({ status: 'failed', failure_reason: reason, failure_detail: FORCED_FAILURES[reason], result: null, confidence: 'high' });
    expect(run.evidence.screenshot_url).toMatch(/\/v1\/artifacts\//);
  });

  it('from an input, whatever its format, and from a job\'s run', async () => {
    const fromInput = await testRun({ prompt: 'Open {{url}}', inputs: { url: 'https://shop.example/?errand_test=captcha' } });
    expect(fromInput.failure_reason).toBe('captcha');
    const project = (await h.daemon.api('GET', '/v1/projects', undefined, asTest())).body.data[0].id;
    const job = (await h.daemon.api('POST', '/v1/jobs', { project_id: project, name: 'prices', prompt: 'Price at {{url}}', input_schema: { type: 'object', required: ['url'], properties: { url: { type: 'string', format: 'uri' } } } }, asTest())).body;
    const jobRun = await h.daemon.api('POST', `/v1/jobs/${job.id}/runs`, { inputs: { url: 'https://shop.example/item?errand_test=site_down' } }, asTest());
    expect(jobRun.status).toBe(202);
    expect((await waitForRun(h.daemon, jobRun.body.task_id, undefined, 45_000, test.key)).failure_reason).toBe('site_down');
  });

  it('a token naming no outcome is ignored with a warning that names it and lists the outcomes; the first that names one wins', async () => {
    const typo = await testRun({ prompt: 'Buy the widget errand_test=captha' });
    expect(typo).toMatchObject({ status: 'succeeded', confidence: 'high' });
    expect(typo.warnings).toEqual([expect.stringMatching(/^test mode: errand_test=captha names no outcome and was ignored; the outcomes are success, low_confidence, .*captcha.*, invalid_output and slow_<seconds>$/)]);
    const both = await testRun({ prompt: 'x errand_test=nope errand_test=not_found errand_test=site_down' });
    expect(both).toMatchObject({ status: 'failed', failure_reason: 'not_found' });
    expect(both.warnings).toEqual([expect.stringContaining('errand_test=nope names no outcome')]);
  });

  it('errand_test=low_confidence and medium_confidence succeed with that confidence', async () => {
    expect(await testRun({ prompt: 'x errand_test=low_confidence' })).toMatchObject({ status: 'succeeded', confidence: 'low' });
    expect(await testRun({ prompt: 'x errand_test=medium_confidence' })).toMatchObject({ status: 'succeeded', confidence: 'medium' });
  });

  it('errand_test=invalid_output succeeds with a result that breaks output_schema, confidence low and a warning', async () => {
    const schema = { type: 'object', additionalProperties: false, required: ['a'], properties: { a: { type: 'string' } } };
    const run = await testRun({ prompt: 'x errand_test=invalid_output', output_schema: schema });
    expect(run).toMatchObject({ status: 'succeeded', confidence: 'low' });
    expect(run.warnings).toHaveLength(1);
    expect((await schemas.validate(schema, 'output_schema', run.result)).length).toBeGreaterThan(0);
  });

  it('errand_test=slow_<s> keeps the run running, at most 60 s, and its timeout_s stops it as live', async () => {
    const slow = await createRun(h.daemon, { prompt: 'x errand_test=slow_600' }, test.key);
    const running = await waitForRun(h.daemon, slow, ['running'], 45_000, test.key);
    expect(running.progress.last_action).toBe('test mode: working slowly for 60 s (errand_test=slow; it asked for 600 s, and 60 s is the most a test-mode run waits)');
    // Its live_url is there as a live run's is, and the view says why it shows nothing.
    expect(running.live_url).toMatch(/\/live\?token=elv_/);
    const frames = await h.daemon.api('GET', `/v1/runs/${slow}/live/frames`, undefined, asTest());
    expect(frames.status).toBe(409);
    expect(frames.body.error).toMatchObject({ code: 'live_view_unavailable', message: `Run ${slow} has no live view: a test-mode run has no sandbox or browser (docs/api.md, Test mode)` });
    expect((await h.daemon.api('POST', `/v1/runs/${slow}/cancel`, undefined, asTest())).body.status).toBe('cancelled');
    const timedOut = await testRun({ prompt: 'x errand_test=slow_600', timeout_s: 1 });
    expect(timedOut).toMatchObject({ status: 'failed', failure_reason: 'timeout', failure_detail: 'stopped at the time limit: the run took longer than its timeout_s of 1 s' });
  });

  it('errand_test=needs_human waits for a person, answered through POST /v1/runs/{id}/human as live', async () => {
    const id = await createRun(h.daemon, { prompt: 'x errand_test=needs_human', output_schema: OUTPUT_SCHEMAS['flat required'] }, test.key);
    const waiting = await until('the run to wait for a person', async () => {
      const run = (await h.daemon.api('GET', `/v1/runs/${id}`, undefined, asTest())).body;
      return run.waiting_for !== null ? run : null;
    });
    expect(waiting).toMatchObject({ status: 'running', waiting_for: { kind: 'answer' } });
    const answered = await h.daemon.api('POST', `/v1/runs/${id}/human`, { request_id: waiting.waiting_for.request_id, answer: 'the blue one' }, asTest());
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    const done = await waitForRun(h.daemon, id, undefined, 45_000, test.key);
    expect(done).toMatchObject({ status: 'succeeded', waiting_for: null });
    const steps = (await h.daemon.api('GET', `/v1/runs/${id}/steps`, undefined, asTest())).body.data;
    expect(steps.find((s: any) => s.name === 'request_human').output).toContain('the blue one');
  });

  it('errand_test=needs_approval, denied, fails the run as documented', async () => {
    const id = await createRun(h.daemon, { prompt: 'x errand_test=needs_approval' }, test.key);
    const waiting = await until('the approval request', async () => (await h.daemon.api('GET', `/v1/runs/${id}`, undefined, asTest())).body.waiting_for);
    expect((await h.daemon.api('POST', `/v1/runs/${id}/human`, { request_id: waiting.request_id, approved: false }, asTest())).status).toBe(200);
    expect(await waitForRun(h.daemon, id, undefined, 45_000, test.key)).toMatchObject({ status: 'failed', failure_reason: 'ambiguous' });
  });
});

describe('as live', () => {
  it('signs and delivers the completion webhook, with livemode false', async () => {
    await testRun({ prompt: 'warm the signing secret' });
    receiver = await WebhookReceiver.start([signingSecretOf(h.daemon.home, test.orgId)]);
    const run = await testRun({ prompt: 'with a webhook', callback_url: receiver.url() });
    const [delivery] = await receiver.waitFor((ds) => ds.length >= 1 && ds, 'the completion webhook');
    expect(receiver.unverified()).toEqual([]);
    expect(delivery!.json).toMatchObject({ event: 'run.completed', livemode: false, data: { task_id: run.task_id, status: 'succeeded' } });
  });

  it('replays an idempotency key', async () => {
    const body = { prompt: 'once', idempotency_key: 'test-order-1' };
    const first = await h.daemon.api('POST', '/v1/runs', body, asTest());
    const again = await h.daemon.api('POST', '/v1/runs', body, asTest());
    expect(again.body.task_id).toBe(first.body.task_id);
    // The same key live is another key space: a run of its own.
    const live = await h.daemon.api('POST', '/v1/runs', body);
    expect(live.body.task_id).not.toBe(first.body.task_id);
  });

  it('refuses a run with 402 for a test key whose monthly cap is 0', async () => {
    const capped = h.daemon.createTestKey({ monthlyCapUsd: 0 });
    expectError(await h.daemon.api('POST', '/v1/runs', { prompt: 'x' }, { key: capped.key }), 402, { type: 'quota_error', code: 'monthly_cap_reached' });
  });

  it('answers 429 past limits.max_pending_runs, counted per mode', async () => {
    const created: string[] = [];
    let refused: any = null;
    for (let i = 0; i <= MAX_PENDING && refused === null; i += 1) {
      const res = await h.daemon.api('POST', '/v1/runs', { prompt: `hold ${i} errand_test=slow_600` }, asTest());
      if (res.status === 202) created.push(res.body.task_id);
      else refused = res;
    }
    expect(created.length).toBeLessThanOrEqual(MAX_PENDING);
    expectError(refused, 429, { type: 'rate_limit_error' });
    // The live organisation's own count is untouched.
    expect((await h.daemon.api('POST', '/v1/runs', { prompt: 'live one' })).status).toBe(202);
    for (const id of created) await h.daemon.api('POST', `/v1/runs/${id}/cancel`, undefined, asTest());
  });

  it('called no model for any test-mode run, while the live runs beside them called it', async () => {
    await until('a live run to call the model', () => h.model.requests.length > 0);
    const testPrompts = ['errand_test', 'Extract it', 'blue widget', 'Same request', 'Another request', 'signing secret', 'with a webhook', 'test run', 'Open ', 'hold '];
    const testCalls = h.model.requests.filter((r) => testPrompts.some((p) => JSON.stringify(r.body.messages).includes(p)));
    expect(testCalls).toEqual([]);
  });
});
