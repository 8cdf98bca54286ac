/**
 * A caller's schemas cannot stall the daemon (#10): schemas beyond the documented bounds are refused with
 * 400 schema_too_complex naming the member, and schemas are compiled and checked in a worker thread, so another
 * organisation's polls are answered while a costly check runs, and a check past the time budget is refused.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDaemon } from '../fixtures/test-daemon.js';
import { expectError, expectInvalid, startApiDaemon } from './harness.js';

let d: TestDaemon;
let other: { key: string };
let polledRun: string;

// A budget well under what the costly check below takes on any machine, so that its refusal does not depend on speed.
const BUDGET_MS = 500;

beforeAll(async () => {
  d = await startApiDaemon({ ERRAND_LIMITS_SCHEMA_CHECK_MS: String(BUDGET_MS) });
  other = d.createOrgWithKey(`poller-${Date.now()}`);
  polledRun = (await d.api('POST', '/v1/runs', { prompt: 'polled' }, { key: other.key })).body.task_id;
});
afterAll(async () => {
  await d?.cleanup();
});

const bigEnum = () => ({ type: 'object', properties: { city: { enum: Array.from({ length: 50_000 }, (_, i) => `city number ${i}`) } } });

describe('schemas beyond the bounds', () => {
  it('refuses an output_schema with a 50,000-value enum (389 KB), naming the enum', async () => {
    const res = await d.api('POST', '/v1/runs', { prompt: 'p', output_schema: bigEnum() });
    expectInvalid(res, 'output_schema.properties.city.enum', 'schema_too_complex');
    expect(res.body.error.message).toBe('output_schema.properties.city.enum has 50000 values; at most 1000 are accepted');
  });

  it('refuses an input_schema whose uniqueItems has no maxItems of at most 1000, and creates no job', async () => {
    const project = (await d.api('GET', '/v1/projects')).body.data[0].id;
    const res = await d.api('POST', '/v1/jobs', {
      project_id: project,
      name: 'unique',
      prompt: 'p',
      input_schema: { type: 'object', properties: { tags: { type: 'array', uniqueItems: true, items: { type: 'object' } } } },
    });
    expectInvalid(res, 'input_schema.properties.tags.uniqueItems', 'schema_too_complex');
  });

  it('refuses the same schemas in PATCH /v1/jobs/{id} and POST /v1/jobs/{id}/runs', async () => {
    const project = (await d.api('GET', '/v1/projects')).body.data[0].id;
    const job = (await d.api('POST', '/v1/jobs', { project_id: project, name: 'j', prompt: 'p' })).body;
    expectInvalid(await d.api('PATCH', `/v1/jobs/${job.id}`, { output_schema: bigEnum() }), 'output_schema.properties.city.enum', 'schema_too_complex');
    expectInvalid(await d.api('POST', `/v1/jobs/${job.id}/runs`, { output_schema: bigEnum() }), 'output_schema.properties.city.enum', 'schema_too_complex');
  });
});

/** POSTs `body` on a connection of its own; `sent` resolves once the whole body is on the socket. */
function post(path: string, body: unknown, key: string): { sent: Promise<void>; answered: Promise<{ status: number; body: any; at: number }> } {
  const u = new URL(d.url);
  const payload = JSON.stringify(body);
  let markSent!: () => void;
  const sent = new Promise<void>((resolve) => (markSent = resolve));
  const answered = new Promise<{ status: number; body: any; at: number }>((resolve, reject) => {
    const req = httpRequest(
      { host: u.hostname, port: u.port, method: 'POST', path, agent: false, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text), at: performance.now() }));
      },
    );
    req.on('error', reject);
    req.end(payload, markSent);
  });
  return { sent, answered };
}

describe('a costly check of inputs against an input_schema', () => {
  it("is refused past the budget with 400 schema_too_complex, while another organisation's polls are answered", async () => {
    const project = (await d.api('GET', '/v1/projects')).body.data[0].id;
    // Every item fails 300 branches before the last: checking 400,000 of them takes far longer than the budget.
    const branches = Array.from({ length: 300 }, (_, i) => ({ type: 'integer', minimum: 10 * i + 1_000_000, maximum: 10 * i + 1_000_005 }));
    const inputSchema = { type: 'object', properties: { xs: { type: 'array', items: { anyOf: [...branches, { type: 'integer' }] } } } };
    const job = await d.api('POST', '/v1/jobs', { project_id: project, name: 'costly', prompt: 'p', input_schema: inputSchema });
    expect(job.status).toBe(201);

    const large = post(`/v1/jobs/${job.body.id}/runs`, { inputs: { xs: new Array(400_000).fill(0) } }, d.key);
    await large.sent;
    let largeAnswered = false;
    void large.answered.then(() => (largeAnswered = true));
    const polls: { at: number; status: number; whileLargeOpen: boolean }[] = [];
    while (!largeAnswered && polls.length < 10_000) {
      const res = await d.api('GET', `/v1/runs/${polledRun}`, undefined, { key: other.key });
      polls.push({ at: performance.now(), status: res.status, whileLargeOpen: !largeAnswered });
    }
    const answer = await large.answered;

    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'schema_too_complex', param: 'input_schema' });
    expect(answer.body.error.message).toContain(`took longer than ${BUDGET_MS} ms (limits.schema_check_ms)`);
    const answeredBefore = polls.filter((p) => p.whileLargeOpen && p.at < answer.at);
    expect(answeredBefore.length).toBeGreaterThan(0);
    expect(answeredBefore.every((p) => p.status === 200)).toBe(true);

    // The checker goes on: a schema sent after it compiles.
    const after = await d.api('POST', '/v1/jobs', { project_id: project, name: 'after', prompt: 'p', input_schema: { type: 'object', required: ['a'] } });
    expect(after.status).toBe(201);
    expectError(await d.api('POST', `/v1/jobs/${after.body.id}/runs`, { inputs: {} }), 400, { type: 'invalid_request_error', code: 'missing_input', param: 'inputs.a' });
  }, 30_000);
});
