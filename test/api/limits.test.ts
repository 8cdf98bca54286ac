import { afterEach, describe, expect, it } from 'vitest';
import type { TestDaemon } from '../fixtures/test-daemon.js';
import { expectError, holdRunSlot, startApiDaemon, walkList } from './harness.js';

let d: TestDaemon | undefined;
afterEach(async () => {
  await d?.cleanup();
  d = undefined;
});

function retryAfter(res: { headers: Headers }): number {
  const v = res.headers.get('retry-after');
  expect(v).toMatch(/^\d+$/);
  return Number(v);
}

describe('429 too_many_concurrent_runs', () => {
  it('answers when the organisation has limits.max_pending_runs runs queued or running, with Retry-After, creating nothing', async () => {
    d = await startApiDaemon({ ERRAND_LIMITS_MAX_PENDING_RUNS: '2', ERRAND_LIMITS_MAX_CONCURRENT_RUNS: '1' });
    holdRunSlot(d, d.orgId);
    const project = (await d.api('POST', '/v1/projects', { name: 'busy' })).body.id;
    const job = (await d.api('POST', '/v1/jobs', { project_id: project, name: 'j', prompt: 'p' })).body.id;
    const queued = await d.api('POST', '/v1/runs', { prompt: 'second of two' });
    expect(queued.status).toBe(202);
    const before = (await walkList(d, '/v1/runs', 200)).items.length;

    const refused = await d.api('POST', '/v1/runs', { prompt: 'third' });
    expectError(refused, 429, { type: 'rate_limit_error', code: 'too_many_concurrent_runs' });
    expect(retryAfter(refused)).toBeGreaterThanOrEqual(1);
    const refusedJob = await d.api('POST', `/v1/jobs/${job}/runs`, {});
    expectError(refusedJob, 429, { type: 'rate_limit_error', code: 'too_many_concurrent_runs' });
    expect(retryAfter(refusedJob)).toBeGreaterThanOrEqual(1);
    expect((await walkList(d, '/v1/runs', 200)).items.length).toBe(before);

    // Another organisation has its own allowance.
    const other = d.createOrgWithKey('not-busy');
    expect((await d.api('POST', '/v1/runs', { prompt: 'x' }, { key: other.key })).status).toBe(202);

    // A cancelled run frees its place.
    expect((await d.api('POST', `/v1/runs/${queued.body.task_id}/cancel`)).status).toBe(200);
    expect((await d.api('POST', '/v1/runs', { prompt: 'now there is room' })).status).toBe(202);
  });
});

describe('429 rate_limited', () => {
  it('answers past limits.requests_per_minute for one key, with Retry-After; other keys and /healthz are unaffected', async () => {
    d = await startApiDaemon({ ERRAND_LIMITS_REQUESTS_PER_MINUTE: '5' });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await d.api('GET', '/v1/projects')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    const limited = await d.api('GET', '/v1/projects');
    expectError(limited, 429, { type: 'rate_limit_error', code: 'rate_limited' });
    const wait = retryAfter(limited);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(12);
    expectError(await d.api('POST', '/v1/runs', { prompt: 'x' }), 429, { type: 'rate_limit_error', code: 'rate_limited' });

    const other = d.createOrgWithKey('fresh-key');
    expect((await d.api('GET', '/v1/projects', undefined, { key: other.key })).status).toBe(200);
    expect((await d.api('GET', '/healthz', undefined, { key: null })).status).toBe(200);
  });
});
