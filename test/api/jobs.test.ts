import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDaemon } from '../fixtures/test-daemon.js';
import { expectError, expectInvalid, ISO_MS, idPattern, startApiDaemon, walkList } from './harness.js';

const JOB_KEYS = [
  'action_space', 'connections', 'created_at', 'description', 'human_email', 'human_timeout_s', 'id', 'input_schema', 'livemode', 'max_cost_usd', 'model', 'name', 'object', 'output_schema',
  'profile', 'profile_mode', 'project_id', 'prompt', 'proxy', 'recording', 'replay', 'require_approval', 'sandbox_label', 'save_profile', 'schedule', 'timeout_s', 'updated_at',
];

let d: TestDaemon;
let projectId: string;
beforeAll(async () => {
  d = await startApiDaemon();
  projectId = (await d.api('POST', '/v1/projects', { name: 'jobs home' })).body.id;
});
afterAll(async () => {
  await d?.cleanup();
});

const inputSchema = { type: 'object', required: ['city'], properties: { city: { type: 'string' } } };
const outputSchema = { type: 'object', required: ['price'], properties: { price: { type: 'number' } } };

describe('POST /v1/jobs', () => {
  it('answers 201 with every member of the job', async () => {
    const res = await d.api('POST', '/v1/jobs', {
      project_id: projectId,
      name: 'price check',
      description: 'daily',
      prompt: 'Find the price in {{city}}',
      model: 'haiku',
      input_schema: inputSchema,
      output_schema: outputSchema,
    });
    expect(res.status).toBe(201);
    const job = res.body;
    expect(Object.keys(job).sort()).toEqual(JOB_KEYS);
    expect(job.id).toMatch(idPattern('job'));
    expect(job).toMatchObject({
      object: 'job',
      project_id: projectId,
      name: 'price check',
      description: 'daily',
      prompt: 'Find the price in {{city}}',
      model: 'haiku',
      input_schema: inputSchema,
      output_schema: outputSchema,
      recording: true,
      proxy: null,
    });
    expect(job.created_at).toMatch(ISO_MS);
    expect(job.updated_at).toMatch(ISO_MS);
  });

  it('defaults the model to sonnet and optional members to null', async () => {
    const res = await d.api('POST', '/v1/jobs', { project_id: projectId, name: 'defaults', prompt: 'p' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ model: 'sonnet', description: null, input_schema: null, output_schema: null });
  });

  it('answers 400 naming each missing required member', async () => {
    expectInvalid(await d.api('POST', '/v1/jobs', { name: 'n', prompt: 'p' }), 'project_id', 'missing_parameter');
    expectInvalid(await d.api('POST', '/v1/jobs', { project_id: projectId, prompt: 'p' }), 'name', 'missing_parameter');
    expectInvalid(await d.api('POST', '/v1/jobs', { project_id: projectId, name: 'n' }), 'prompt', 'missing_parameter');
  });

  it('answers 400 for an unknown member, a wrong type, and a model outside the three', async () => {
    expectInvalid(await d.api('POST', '/v1/jobs', { project_id: projectId, name: 'n', prompt: 'p', cron: '* * * * *' }), 'cron', 'unknown_parameter');
    expectInvalid(await d.api('POST', '/v1/jobs', { project_id: projectId, name: 'n', prompt: 42 }), 'prompt', 'invalid_body');
    expectInvalid(await d.api('POST', '/v1/jobs', { project_id: projectId, name: 'n', prompt: 'p', model: 'gpt-4' }), 'model', 'invalid_body');
    expectInvalid(await d.api('POST', '/v1/jobs', { project_id: projectId, name: 'n', prompt: 'p', input_schema: 'x' }), 'input_schema');
  });

  it('answers 400 invalid_output_schema when output_schema is not a valid JSON Schema', async () => {
    expectInvalid(
      await d.api('POST', '/v1/jobs', { project_id: projectId, name: 'n', prompt: 'p', output_schema: { type: 'nope' } }),
      'output_schema',
      'invalid_output_schema',
    );
    expectInvalid(
      await d.api('POST', '/v1/jobs', { project_id: projectId, name: 'n', prompt: 'p', input_schema: { properties: { a: { pattern: '(' } } } }),
      'input_schema',
      'invalid_input_schema',
    );
  });

  it('answers 404 naming project_id for an unknown project, and creates nothing', async () => {
    const before = (await walkList(d, '/v1/jobs', 200)).items.length;
    expectError(await d.api('POST', '/v1/jobs', { project_id: 'proj_01jd0000000000000000000000', name: 'n', prompt: 'p' }), 404, {
      type: 'not_found_error',
      param: 'project_id',
    });
    expect((await walkList(d, '/v1/jobs', 200)).items.length).toBe(before);
  });
});

describe('GET /v1/jobs/{id}', () => {
  it('answers the job as created', async () => {
    const job = (await d.api('POST', '/v1/jobs', { project_id: projectId, name: 'get', prompt: 'p', output_schema: outputSchema })).body;
    const res = await d.api('GET', `/v1/jobs/${job.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(job);
  });

  it('answers 404 for an unknown id', async () => {
    expectError(await d.api('GET', '/v1/jobs/job_01jd0000000000000000000000'), 404, { type: 'not_found_error', code: 'resource_missing' });
  });
});

describe('GET /v1/jobs', () => {
  it('filters by project_id', async () => {
    const other = (await d.api('POST', '/v1/projects', { name: 'other' })).body.id;
    const mine = [];
    for (let i = 0; i < 3; i++) mine.push((await d.api('POST', '/v1/jobs', { project_id: other, name: `o${i}`, prompt: 'p' })).body.id);
    const { items } = await walkList(d, `/v1/jobs?project_id=${other}`, 2);
    expect(items.map((j) => j.id)).toEqual(mine.reverse());
    expect(items.every((j) => j.project_id === other)).toBe(true);
    const all = (await walkList(d, '/v1/jobs', 200)).items;
    expect(all.some((j) => j.project_id === projectId)).toBe(true);
  });

  it('answers an empty list for an unknown project_id', async () => {
    const res = await d.api('GET', '/v1/jobs?project_id=proj_01jd0000000000000000000000');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null });
  });

  it('answers 400 naming limit when it is out of range', async () => {
    expectInvalid(await d.api('GET', '/v1/jobs?limit=201'), 'limit');
    expectInvalid(await d.api('GET', '/v1/jobs?limit=0'), 'limit');
  });
});

describe('PATCH /v1/jobs/{id}', () => {
  it('changes only the members sent, and null clears an optional one', async () => {
    const job = (
      await d.api('POST', '/v1/jobs', {
        project_id: projectId,
        name: 'patch me',
        description: 'desc',
        prompt: 'old {{city}}',
        input_schema: inputSchema,
        output_schema: outputSchema,
      })
    ).body;
    const res = await d.api('PATCH', `/v1/jobs/${job.id}`, { prompt: 'new', model: 'opus', description: null, input_schema: null });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: job.id,
      project_id: projectId,
      name: 'patch me',
      prompt: 'new',
      model: 'opus',
      description: null,
      input_schema: null,
      output_schema: outputSchema,
      created_at: job.created_at,
    });
    expect((await d.api('GET', `/v1/jobs/${job.id}`)).body).toEqual(res.body);
  });

  it('answers 400 to project_id, which cannot change, and to unknown members', async () => {
    const job = (await d.api('POST', '/v1/jobs', { project_id: projectId, name: 'fixed', prompt: 'p' })).body;
    const other = (await d.api('POST', '/v1/projects', { name: 'elsewhere' })).body.id;
    expectInvalid(await d.api('PATCH', `/v1/jobs/${job.id}`, { project_id: other }), 'project_id');
    expectInvalid(await d.api('PATCH', `/v1/jobs/${job.id}`, { colour: 'red' }), 'colour', 'unknown_parameter');
    expect((await d.api('GET', `/v1/jobs/${job.id}`)).body.project_id).toBe(projectId);
  });

  it('answers 400 for a null required member and for an invalid output_schema, changing nothing', async () => {
    const job = (await d.api('POST', '/v1/jobs', { project_id: projectId, name: 'keep', prompt: 'p' })).body;
    expectInvalid(await d.api('PATCH', `/v1/jobs/${job.id}`, { prompt: null }), 'prompt');
    expectInvalid(await d.api('PATCH', `/v1/jobs/${job.id}`, { name: 'changed', output_schema: { type: 12 } }), 'output_schema', 'invalid_output_schema');
    expect((await d.api('GET', `/v1/jobs/${job.id}`)).body).toEqual(job);
  });

  it('answers 404 for an unknown id', async () => {
    expectError(await d.api('PATCH', '/v1/jobs/job_01jd0000000000000000000000', { name: 'x' }), 404, { type: 'not_found_error' });
  });
});

describe('DELETE /v1/jobs/{id}', () => {
  it('answers the deletion record, then 404; its runs stay readable', async () => {
    const job = (await d.api('POST', '/v1/jobs', { project_id: projectId, name: 'bye', prompt: 'p' })).body;
    const run = (await d.api('POST', `/v1/jobs/${job.id}/runs`, {})).body;
    const res = await d.api('DELETE', `/v1/jobs/${job.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: job.id, object: 'job', livemode: true, deleted: true });
    expectError(await d.api('GET', `/v1/jobs/${job.id}`), 404, { type: 'not_found_error' });
    expectError(await d.api('POST', `/v1/jobs/${job.id}/runs`, {}), 404, { type: 'not_found_error' });
    const got = await d.api('GET', `/v1/runs/${run.task_id}`);
    expect(got.status).toBe(200);
    expect(got.body.job_id).toBe(job.id);
  });

  it('answers 404 for an unknown id', async () => {
    expectError(await d.api('DELETE', '/v1/jobs/job_01jd0000000000000000000000'), 404, { type: 'not_found_error' });
  });
});
