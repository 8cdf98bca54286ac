import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDaemon } from '../fixtures/test-daemon.js';
import { expectError, startApiDaemon, walkList } from './harness.js';

/** Organisation A is the daemon's first; B is a second organisation on the same installation. */
let d: TestDaemon;
let bKey: string;
let a: { project: any; job: any; run: string; jobRun: string };

beforeAll(async () => {
  d = await startApiDaemon();
  bKey = d.createOrgWithKey('tenant-b').key;
  const project = (await d.api('POST', '/v1/projects', { name: 'A only', description: 'secret plans' })).body;
  const job = (await d.api('POST', '/v1/jobs', { project_id: project.id, name: 'A job', prompt: 'p' })).body;
  const run = (await d.api('POST', '/v1/runs', { prompt: 'A run', project_id: project.id })).body.task_id;
  const jobRun = (await d.api('POST', `/v1/jobs/${job.id}/runs`, {})).body.task_id;
  a = { project, job, run, jobRun };
  // B has things of its own, so its lists are not trivially empty.
  const bp = (await d.api('POST', '/v1/projects', { name: 'B project' }, { key: bKey })).body.id;
  const bj = (await d.api('POST', '/v1/jobs', { project_id: bp, name: 'B job', prompt: 'p' }, { key: bKey })).body.id;
  await d.api('POST', `/v1/jobs/${bj}/runs`, {}, { key: bKey });
});
afterAll(async () => {
  await d?.cleanup();
});

const notFound = { type: 'not_found_error' };

describe("another organisation's ids are 404, never 403", () => {
  it('on every {id} route', async () => {
    const b = { key: bKey };
    expectError(await d.api('GET', `/v1/projects/${a.project.id}`, undefined, b), 404, notFound);
    expectError(await d.api('PATCH', `/v1/projects/${a.project.id}`, { name: 'mine now' }, b), 404, notFound);
    expectError(await d.api('DELETE', `/v1/projects/${a.project.id}`, undefined, b), 404, notFound);
    expectError(await d.api('GET', `/v1/jobs/${a.job.id}`, undefined, b), 404, notFound);
    expectError(await d.api('PATCH', `/v1/jobs/${a.job.id}`, { prompt: 'leak' }, b), 404, notFound);
    expectError(await d.api('DELETE', `/v1/jobs/${a.job.id}`, undefined, b), 404, notFound);
    expectError(await d.api('POST', `/v1/jobs/${a.job.id}/runs`, {}, b), 404, notFound);
    expectError(await d.api('GET', `/v1/runs/${a.run}`, undefined, b), 404, notFound);
    expectError(await d.api('GET', `/v1/runs/${a.jobRun}`, undefined, b), 404, notFound);
    expectError(await d.api('POST', `/v1/runs/${a.run}/cancel`, undefined, b), 404, notFound);
  });

  it('as a reference in a body', async () => {
    expectError(await d.api('POST', '/v1/jobs', { project_id: a.project.id, name: 'n', prompt: 'p' }, { key: bKey }), 404, { ...notFound, param: 'project_id' });
    expectError(await d.api('POST', '/v1/runs', { prompt: 'p', project_id: a.project.id }, { key: bKey }), 404, { ...notFound, param: 'project_id' });
  });

  it("leaves A's resources untouched", async () => {
    expect((await d.api('GET', `/v1/projects/${a.project.id}`)).body).toEqual(a.project);
    expect((await d.api('GET', `/v1/jobs/${a.job.id}`)).body).toEqual(a.job);
    expect((await d.api('GET', `/v1/runs/${a.run}`)).status).toBe(200);
  });
});

describe('lists show only the caller\'s organisation', () => {
  it('GET /v1/projects, /v1/jobs, /v1/runs', async () => {
    const projects = (await walkList(d, '/v1/projects', 200, bKey)).items;
    const jobs = (await walkList(d, '/v1/jobs', 200, bKey)).items;
    const runs = (await walkList(d, '/v1/runs', 200, bKey)).items;
    expect(projects.length).toBe(2);
    expect(jobs.length).toBe(1);
    expect(runs.length).toBe(1);
    expect(projects.map((p) => p.id)).not.toContain(a.project.id);
    expect(jobs.map((j) => j.id)).not.toContain(a.job.id);
    expect(runs.map((r) => r.task_id)).not.toContain(a.run);
    expect(runs.map((r) => r.task_id)).not.toContain(a.jobRun);
    expect(JSON.stringify([projects, jobs, runs])).not.toContain('secret plans');
  });

  it("with A's ids as filters: empty", async () => {
    const jobs = await d.api('GET', `/v1/jobs?project_id=${a.project.id}`, undefined, { key: bKey });
    expect(jobs.body).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null });
    const runs = await d.api('GET', `/v1/runs?job_id=${a.job.id}`, undefined, { key: bKey });
    expect(runs.body).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null });
  });

  it("with A's id as a cursor: still only B's items", async () => {
    const runs = await d.api('GET', `/v1/runs?cursor=run_zzzzzzzzzzzzzzzzzzzzzzzzzz`, undefined, { key: bKey });
    expect(runs.status).toBe(200);
    expect(runs.body.data.every((r: any) => r.task_id !== a.run && r.task_id !== a.jobRun)).toBe(true);
  });
});
