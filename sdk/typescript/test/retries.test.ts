import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Errand, RateLimitError } from '../src/index.js';
import { startSdkDaemon, type SdkDaemon } from './sdk-daemon.js';

let daemon: SdkDaemon;
let errand: Errand;

beforeAll(async () => {
  daemon = await startSdkDaemon();
  errand = new Errand({ apiKey: daemon.key, baseUrl: daemon.url, maxRetries: 2 });
});
afterAll(async () => {
  await daemon?.stop();
});

async function runCount(client: Errand, jobId?: string): Promise<number> {
  return (await client.runs.list({ limit: 200, ...(jobId ? { job_id: jobId } : {}) }).toArray()).length;
}

describe('retries', () => {
  it('S05 retries a 429 with Retry-After and a 503 on POST /v1/runs with the same idempotency key, creating one run', async () => {
    const before = await runCount(errand);
    const seenBefore = (await daemon.requests('POST', '/v1/runs')).length;
    await daemon.fail('POST', '/v1/runs', 429, { retryAfter: '1' });
    await daemon.fail('POST', '/v1/runs', 503);

    const created = await errand.runs.create({ prompt: 'Say ok' });

    const attempts = (await daemon.requests('POST', '/v1/runs')).slice(seenBefore);
    expect(attempts.map((a) => a.status)).toEqual([429, 503, 202]);
    const key = attempts[0]!.idempotency_key;
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(attempts.map((a) => a.idempotency_key)).toEqual([key, key, key]);
    expect(await runCount(errand)).toBe(before + 1);
    expect((await errand.runs.get(created.task_id)).task_id).toBe(created.task_id);
  });

  it('S05 a retry after a lost answer replays the run the first attempt created (POST /v1/jobs/{id}/runs)', async () => {
    const project = await errand.projects.create({ name: 'retries' });
    const job = await errand.jobs.create({ project_id: project.id, name: 'retried', prompt: 'Say ok' });
    const path = `/v1/jobs/${job.id}/runs`;
    await daemon.fail('POST', path, 503);
    const idempotencyKey = 'sdk-test-key-1';
    const first = await errand.runs.create({ job_id: job.id, idempotency_key: idempotencyKey });
    // The same call again, as a retry after a lost answer would make it: the daemon answers the same run.
    const again = await errand.runs.create({ job_id: job.id, idempotency_key: idempotencyKey });

    expect(again.task_id).toBe(first.task_id);
    expect((await daemon.requests('POST', path)).map((a) => [a.status, a.idempotency_key])).toEqual([
      [503, idempotencyKey],
      [202, idempotencyKey],
      [202, idempotencyKey],
    ]);
    expect(await runCount(errand, job.id)).toBe(1);
  });

  it('S05 a Retry-After longer than maxRetryDelayMs is not waited for: the 429 is thrown at once', async () => {
    const impatient = new Errand({ apiKey: daemon.key, baseUrl: daemon.url, maxRetryDelayMs: 2_000 });
    await daemon.fail('POST', '/v1/runs', 429, { retryAfter: '3600' });
    const seenBefore = (await daemon.requests('POST', '/v1/runs')).length;

    const error = await impatient.runs.create({ prompt: 'Say ok' }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, code: 'rate_limited', type: 'rate_limit_error' });
    expect((error as RateLimitError).headers.get('retry-after')).toBe('3600');
    expect((await daemon.requests('POST', '/v1/runs')).slice(seenBefore).map((a) => a.status)).toEqual([429]);
  });

  it('S05 gives up after maxRetries and throws the last error', async () => {
    await daemon.fail('POST', '/v1/runs', 503, { times: 3 });
    const error = await errand.runs.create({ prompt: 'Say ok' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 503, type: 'api_error', code: 'unavailable' });
  });
});
