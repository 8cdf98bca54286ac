import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDaemon } from '../fixtures/test-daemon.js';
import { expectInvalid, rawRequest, startApiDaemon } from './harness.js';

let d: TestDaemon;
let jobId: string;

beforeAll(async () => {
  d = await startApiDaemon();
  const project = (await d.api('POST', '/v1/projects', { name: 'queries' })).body.id as string;
  jobId = (await d.api('POST', '/v1/jobs', { project_id: project, name: 'q', prompt: 'p' })).body.id as string;
});
afterAll(async () => {
  await d?.cleanup();
});

/** Sends the query as written (fetch would re-encode it). */
function get(pathAndQuery: string) {
  return rawRequest(d.url, { method: 'GET', path: pathAndQuery, headers: { authorization: `Bearer ${d.key}` } });
}

describe('limit in a query string', () => {
  it.each(['0x10', '0b11', '0o7', '1e1', '%2B5', '+5', '%205', '5%20', '1.0', '010', 'Infinity', ''])('answers 400 naming limit for limit=%s', async (limit) => {
    expectInvalid(await get(`/v1/runs?limit=${limit}`), 'limit');
  });

  it('says the value must be a decimal integer', async () => {
    const res = await get('/v1/projects?limit=0x10');
    expect(res.body.error.message).toBe("Query parameter 'limit' must be a decimal integer, got '0x10'");
  });

  it('accepts decimal digits', async () => {
    const res = await get('/v1/jobs?limit=16');
    expect(res.status).toBe(200);
    expect(res.body.object).toBe('list');
  });

  it('answers 400 when limit is given twice', async () => {
    expectInvalid(await get('/v1/runs?limit=5&limit=6'), 'limit');
  });
});

describe('ids in a query string', () => {
  it('answers 400 naming job_id for a job_id that is not a job id', async () => {
    for (const value of ['nonsense', 'proj_01jd0000000000000000000000', 'job_01JD0000000000000000000000']) {
      expectInvalid(await get(`/v1/runs?job_id=${value}`), 'job_id');
    }
  });

  it('answers 400 naming project_id for a project_id that is not a project id', async () => {
    expectInvalid(await get('/v1/jobs?project_id=nonsense'), 'project_id');
  });

  it('answers 200 for a well-formed id, whether or not it exists', async () => {
    const mine = await get(`/v1/runs?job_id=${jobId}`);
    expect(mine.status).toBe(200);
    const unknown = await get('/v1/runs?job_id=job_01jd0000000000000000000000');
    expect(unknown.status).toBe(200);
    expect(unknown.body.data).toEqual([]);
  });
});

describe('percent-encoding in a query string', () => {
  it.each(['job_id=%', 'job_id=%zz', 'job_id=%E0%A4%A', 'job_id=job_%C0%AF'])('answers 400 naming the parameter for %s', async (query) => {
    expectInvalid(await get(`/v1/runs?${query}`), 'job_id');
  });

  it('answers 400 for a parameter name with broken encoding', async () => {
    const res = await get('/v1/runs?li%mit=5');
    expectInvalid(res, 'li%mit');
    expect(res.body.error.message).toMatch(/broken percent-encoding/);
  });

  it('decodes well-formed escapes', async () => {
    const res = await get(`/v1/runs?job_id=${encodeURIComponent(jobId)}&limit=%31%30`);
    expect(res.status).toBe(200);
  });
});
