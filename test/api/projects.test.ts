import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDaemon } from '../fixtures/test-daemon.js';
import { expectError, expectInvalid, ISO_MS, idPattern, startApiDaemon, walkList } from './harness.js';

const PROJECT_KEYS = ['created_at', 'description', 'id', 'is_default', 'livemode', 'name', 'object', 'updated_at'];

let d: TestDaemon;
beforeAll(async () => {
  d = await startApiDaemon();
});
afterAll(async () => {
  await d?.cleanup();
});

function expectProject(p: any, name: string, description: string | null): void {
  expect(Object.keys(p).sort()).toEqual(PROJECT_KEYS);
  expect(p.id).toMatch(idPattern('proj'));
  expect(p.object).toBe('project');
  expect(p.name).toBe(name);
  expect(p.description).toBe(description);
  expect(p.created_at).toMatch(ISO_MS);
  expect(p.updated_at).toMatch(ISO_MS);
}

describe('POST /v1/projects', () => {
  it('answers 201 with the project', async () => {
    const res = await d.api('POST', '/v1/projects', { name: 'Pricing watch', description: 'competitor prices' });
    expect(res.status).toBe(201);
    expectProject(res.body, 'Pricing watch', 'competitor prices');
    expect(res.body.is_default).toBe(false);
    expect(res.body.updated_at).toBe(res.body.created_at);
  });

  it('answers 201 without a description, which is null', async () => {
    const res = await d.api('POST', '/v1/projects', { name: 'bare' });
    expect(res.status).toBe(201);
    expectProject(res.body, 'bare', null);
  });

  it('answers 400 naming the missing name', async () => {
    expectInvalid(await d.api('POST', '/v1/projects', { description: 'x' }), 'name', 'missing_parameter');
  });

  it('answers 400 naming an unknown member', async () => {
    expectInvalid(await d.api('POST', '/v1/projects', { name: 'x', colour: 'red' }), 'colour', 'unknown_parameter');
  });

  it('answers 400 naming a member of the wrong type', async () => {
    expectInvalid(await d.api('POST', '/v1/projects', { name: 5 }), 'name', 'invalid_body');
    expectInvalid(await d.api('POST', '/v1/projects', { name: 'x', description: ['a'] }), 'description', 'invalid_body');
  });

  it('answers 400 to a body that is not an object', async () => {
    expectInvalid(await d.api('POST', '/v1/projects', ['name']), undefined, 'invalid_body');
  });
});

describe('GET /v1/projects/{id}', () => {
  it('answers the project', async () => {
    const created = (await d.api('POST', '/v1/projects', { name: 'fetch me' })).body;
    const res = await d.api('GET', `/v1/projects/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created);
  });

  it('answers 404 for an unknown id', async () => {
    expectError(await d.api('GET', '/v1/projects/proj_01jd0000000000000000000000'), 404, { type: 'not_found_error', code: 'resource_missing' });
  });
});

describe('GET /v1/projects', () => {
  it('lists the organisation\'s "API Runs" project', async () => {
    const { items } = await walkList(d, '/v1/projects', 200);
    const defaults = items.filter((p) => p.is_default);
    expect(defaults).toHaveLength(1);
    expectProject(defaults[0], 'API Runs', defaults[0].description);
  });

  it('lists newest first and pages with cursor without duplicates or gaps', async () => {
    const created: string[] = [];
    for (let i = 0; i < 5; i++) created.push((await d.api('POST', '/v1/projects', { name: `page ${i}` })).body.id);
    const { pages, items } = await walkList(d, '/v1/projects', 2);
    const ids = items.map((p) => p.id);
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort().reverse()).toEqual(ids);
    expect(ids.slice(0, 5)).toEqual([...created].reverse());
    expect(ids).toEqual((await walkList(d, '/v1/projects', 200)).items.map((p) => p.id));
    expect(ids).toContain(items.find((p) => p.is_default)!.id);
  });

  it('answers 400 for a limit outside 1..200 or not a number, naming limit', async () => {
    for (const limit of ['0', '201', '-1', 'abc', '1.5']) {
      expectInvalid(await d.api('GET', `/v1/projects?limit=${limit}`), 'limit');
    }
  });

  it('answers 400 for an unknown query parameter and a malformed cursor', async () => {
    expectInvalid(await d.api('GET', '/v1/projects?sort=asc'), 'sort');
    expectInvalid(await d.api('GET', '/v1/projects?cursor=nope'), 'cursor');
  });
});

describe('PATCH /v1/projects/{id}', () => {
  it('changes only the members sent', async () => {
    const p = (await d.api('POST', '/v1/projects', { name: 'before', description: 'keep me' })).body;
    const res = await d.api('PATCH', `/v1/projects/${p.id}`, { name: 'after' });
    expect(res.status).toBe(200);
    expectProject(res.body, 'after', 'keep me');
    expect(res.body.id).toBe(p.id);
    expect(res.body.created_at).toBe(p.created_at);
    expect(Date.parse(res.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(p.updated_at));
    expect((await d.api('GET', `/v1/projects/${p.id}`)).body).toEqual(res.body);
  });

  it('clears the description with null', async () => {
    const p = (await d.api('POST', '/v1/projects', { name: 'clear', description: 'soon gone' })).body;
    const res = await d.api('PATCH', `/v1/projects/${p.id}`, { description: null });
    expect(res.status).toBe(200);
    expectProject(res.body, 'clear', null);
  });

  it('accepts an empty object and changes nothing but updated_at', async () => {
    const p = (await d.api('POST', '/v1/projects', { name: 'same', description: 'same' })).body;
    const res = await d.api('PATCH', `/v1/projects/${p.id}`, {});
    expect(res.status).toBe(200);
    expectProject(res.body, 'same', 'same');
  });

  it('answers 400 for an unknown member and for a null name (required at creation)', async () => {
    const p = (await d.api('POST', '/v1/projects', { name: 'strict' })).body;
    expectInvalid(await d.api('PATCH', `/v1/projects/${p.id}`, { owner: 'me' }), 'owner', 'unknown_parameter');
    expectInvalid(await d.api('PATCH', `/v1/projects/${p.id}`, { name: null }), 'name');
    expect((await d.api('GET', `/v1/projects/${p.id}`)).body.name).toBe('strict');
  });

  it('answers 404 for an unknown id', async () => {
    expectError(await d.api('PATCH', '/v1/projects/proj_01jd0000000000000000000000', { name: 'x' }), 404, { type: 'not_found_error' });
  });
});

describe('DELETE /v1/projects/{id}', () => {
  it('answers the deletion record, then 404', async () => {
    const p = (await d.api('POST', '/v1/projects', { name: 'doomed' })).body;
    const res = await d.api('DELETE', `/v1/projects/${p.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: p.id, object: 'project', livemode: true, deleted: true });
    expectError(await d.api('GET', `/v1/projects/${p.id}`), 404, { type: 'not_found_error' });
    expectError(await d.api('DELETE', `/v1/projects/${p.id}`), 404, { type: 'not_found_error' });
  });

  it('deletes the project\'s jobs, while its runs stay readable', async () => {
    const p = (await d.api('POST', '/v1/projects', { name: 'with jobs' })).body;
    const job = (await d.api('POST', '/v1/jobs', { project_id: p.id, name: 'j', prompt: 'look' })).body;
    const run = (await d.api('POST', `/v1/jobs/${job.id}/runs`, {})).body;
    expect(run.task_id).toMatch(idPattern('run'));
    const adhoc = (await d.api('POST', '/v1/runs', { prompt: 'adhoc', project_id: p.id })).body;

    expect((await d.api('DELETE', `/v1/projects/${p.id}`)).status).toBe(200);
    expectError(await d.api('GET', `/v1/jobs/${job.id}`), 404, { type: 'not_found_error' });
    const jobs = (await walkList(d, `/v1/jobs?project_id=${p.id}`, 200)).items;
    expect(jobs).toEqual([]);

    for (const id of [run.task_id, adhoc.task_id]) {
      const got = await d.api('GET', `/v1/runs/${id}`);
      expect(got.status).toBe(200);
      expect(got.body.project_id).toBe(p.id);
    }
    const jobRuns = await d.api('GET', `/v1/runs?job_id=${job.id}`);
    expect(jobRuns.body.data.map((r: any) => r.task_id)).toEqual([run.task_id]);
  });

  it('answers 409 project_not_deletable for the "API Runs" project, which stays', async () => {
    const { items } = await walkList(d, '/v1/projects', 200);
    const def = items.find((p) => p.is_default)!;
    expectError(await d.api('DELETE', `/v1/projects/${def.id}`), 409, { type: 'conflict_error', code: 'project_not_deletable' });
    expect((await d.api('GET', `/v1/projects/${def.id}`)).status).toBe(200);
  });
});
