/**
 * The action spaces at creation (docs/api.md, Action spaces): `computer` is taken only for a model with its API's own
 * computer-use tool, by runs, checks, jobs, job runs, reruns and the MCP tools that start runs; every other model is
 * refused with 400 action_space_unsupported naming action_space, the model as configured and the models that have one.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computerToolOf } from '../../src/vocabulary/models.js';
import type { ApiResponse, TestDaemon } from '../fixtures/test-daemon.js';
import { connectWithKey, toolError } from '../mcp-server/harness.js';
import { expectInvalid, startApiDaemon } from './harness.js';

/** haiku is mapped to a model without the tool; sonnet and opus keep their defaults, which have it. */
const WITHOUT_TOOL = 'claude-3-5-haiku-20241022';

let d: TestDaemon;
let projectId: string;

beforeAll(async () => {
  d = await startApiDaemon({ ERRAND_MODELS_HAIKU: WITHOUT_TOOL, ERRAND_LIMITS_MAX_PENDING_RUNS: '1000' });
  projectId = (await d.api('POST', '/v1/projects', { name: 'action spaces' })).body.id;
});
afterAll(async () => {
  await d?.cleanup();
});

/** The refusal's message names the model as configured and the models that have the tool. */
function expectUnsupported(res: ApiResponse): void {
  expectInvalid(res, 'action_space', 'action_space_unsupported');
  expect(res.body.error.message).toContain(`the model haiku is "${WITHOUT_TOOL}" on the anthropic API (models.haiku, models.provider), which has none`);
  expect(res.body.error.message).toContain('on anthropic: claude-opus-4-8, claude-opus-4-7, claude-opus-4-6, claude-sonnet-4-6');
  expect(res.body.error.message).toContain('on openai: gpt-5.5, gpt-5.4, computer-use-preview');
}

describe('which models have a computer-use tool', () => {
  it('knows each provider\'s models and their dated snapshots, and nothing else', () => {
    expect(computerToolOf('anthropic', 'claude-sonnet-4-6')).toBe('computer_20251124');
    expect(computerToolOf('anthropic', 'claude-sonnet-4-20250514')).toBe('computer_20250124');
    expect(computerToolOf('anthropic', 'claude-opus-4-1-20250805')).toBe('computer_20250124');
    expect(computerToolOf('anthropic', 'claude-haiku-4-5')).toBe('computer_20250124');
    expect(computerToolOf('anthropic', WITHOUT_TOOL)).toBeNull();
    expect(computerToolOf('anthropic', 'claude-sonnet-4-6-turbo')).toBeNull();
    expect(computerToolOf('anthropic', 'gpt-5.4')).toBeNull();
    expect(computerToolOf('openai', 'gpt-5.4-2026-03-05')).toBe('computer');
    expect(computerToolOf('openai', 'computer-use-preview')).toBe('computer_use_preview');
    expect(computerToolOf('openai', 'gpt-4o')).toBeNull();
    expect(computerToolOf('openai', 'llama3.1')).toBeNull();
  });
});

describe('POST /v1/runs with action_space', () => {
  it('takes computer for a model with the tool, and says so in the envelope', async () => {
    const res = await d.api('POST', '/v1/runs', { prompt: 'Click the map', model: 'sonnet', action_space: 'computer' });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect((await d.api('GET', `/v1/runs/${res.body.task_id}`)).body.action_space).toBe('computer');
  });

  it('defaults to dom, and takes dom for any model', async () => {
    const plain = await d.api('POST', '/v1/runs', { prompt: 'Read the page', model: 'haiku' });
    expect((await d.api('GET', `/v1/runs/${plain.body.task_id}`)).body.action_space).toBe('dom');
    expect((await d.api('POST', '/v1/runs', { prompt: 'Read', model: 'haiku', action_space: 'dom' })).status).toBe(202);
  });

  it('answers 400 action_space_unsupported for a model without the tool, creating nothing', async () => {
    const count = async (): Promise<number> => (await d.api('GET', '/v1/runs?limit=200')).body.data.length;
    const before = await count();
    expectUnsupported(await d.api('POST', '/v1/runs', { prompt: 'Click the map', model: 'haiku', action_space: 'computer' }));
    expectUnsupported(await d.api('POST', '/v1/runs/check', { prompt: 'Click the map', model: 'haiku', action_space: 'computer' }));
    expect(await count()).toBe(before);
  });

  it('answers 400 naming action_space for a space that is not one', async () => {
    expectInvalid(await d.api('POST', '/v1/runs', { prompt: 'p', action_space: 'pixels' }), 'action_space', 'invalid_body');
  });
});

describe('jobs and their runs with action_space', () => {
  it("keeps a job's action_space, which its runs take unless they name their own", async () => {
    const job = await d.api('POST', '/v1/jobs', { project_id: projectId, name: 'by pixels', prompt: 'Click it', model: 'sonnet', action_space: 'computer' });
    expect(job.status, JSON.stringify(job.body)).toBe(201);
    expect(job.body.action_space).toBe('computer');
    const inherited = await d.api('POST', `/v1/jobs/${job.body.id}/runs`, {});
    expect((await d.api('GET', `/v1/runs/${inherited.body.task_id}`)).body.action_space).toBe('computer');
    const own = await d.api('POST', `/v1/jobs/${job.body.id}/runs`, { action_space: 'dom' });
    expect((await d.api('GET', `/v1/runs/${own.body.task_id}`)).body.action_space).toBe('dom');
    expect((await d.api('POST', '/v1/jobs', { project_id: projectId, name: 'default', prompt: 'p' })).body.action_space).toBe('dom');
  });

  it('refuses a job, or a change of one, that would put a model without the tool in the computer space', async () => {
    expectUnsupported(await d.api('POST', '/v1/jobs', { project_id: projectId, name: 'n', prompt: 'p', model: 'haiku', action_space: 'computer' }));
    const dom = (await d.api('POST', '/v1/jobs', { project_id: projectId, name: 'dom haiku', prompt: 'p', model: 'haiku' })).body;
    expectUnsupported(await d.api('PATCH', `/v1/jobs/${dom.id}`, { action_space: 'computer' }));
    const computer = (await d.api('POST', '/v1/jobs', { project_id: projectId, name: 'computer sonnet', prompt: 'p', action_space: 'computer' })).body;
    expectUnsupported(await d.api('PATCH', `/v1/jobs/${computer.id}`, { model: 'haiku' }));
    expect((await d.api('GET', `/v1/jobs/${computer.id}`)).body).toMatchObject({ model: 'sonnet', action_space: 'computer' });
    expect((await d.api('PATCH', `/v1/jobs/${computer.id}`, { model: 'haiku', action_space: 'dom' })).body).toMatchObject({ model: 'haiku', action_space: 'dom' });
  });

  it("refuses a job's run that asks for computer with the job's model without the tool", async () => {
    const job = (await d.api('POST', '/v1/jobs', { project_id: projectId, name: 'haiku job', prompt: 'p', model: 'haiku' })).body;
    expectUnsupported(await d.api('POST', `/v1/jobs/${job.id}/runs`, { action_space: 'computer' }));
    expectUnsupported(await d.api('POST', `/v1/jobs/${job.id}/runs/check`, { action_space: 'computer' }));
  });
});

describe('the MCP tools that start runs', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connectWithKey(d.url, d.key);
  });
  afterAll(async () => {
    await client?.close();
  });

  it('refuse computer for a model without the tool, as the REST API does', async () => {
    const task = toolError(await client.callTool({ name: 'run_task', arguments: { prompt: 'Click', model: 'haiku', action_space: 'computer', wait_seconds: 0 } }));
    expect(task).toMatchObject({ code: 'action_space_unsupported', param: 'action_space' });
    const job = (await d.api('POST', '/v1/jobs', { project_id: projectId, name: 'mcp haiku', prompt: 'p', model: 'haiku' })).body;
    const run = toolError(await client.callTool({ name: 'run_job', arguments: { job_id: job.id, action_space: 'computer', wait_seconds: 0 } }));
    expect(run).toMatchObject({ code: 'action_space_unsupported', param: 'action_space' });
  });
});

describe('on the openai provider', () => {
  let o: TestDaemon;
  beforeAll(async () => {
    o = await startApiDaemon({ ERRAND_MODELS_PROVIDER: 'openai', ERRAND_MODELS_SONNET: 'gpt-4o', ERRAND_MODELS_OPUS: 'gpt-5.4' });
  });
  afterAll(async () => {
    await o?.cleanup();
  });

  it('takes computer for gpt-5.4 and refuses it for gpt-4o', async () => {
    expect((await o.api('POST', '/v1/runs', { prompt: 'Click', model: 'opus', action_space: 'computer' })).status).toBe(202);
    const refused = await o.api('POST', '/v1/runs', { prompt: 'Click', model: 'sonnet', action_space: 'computer' });
    expectInvalid(refused, 'action_space', 'action_space_unsupported');
    expect(refused.body.error.message).toContain('the model sonnet is "gpt-4o" on the openai API (models.sonnet, models.provider), which has none');
  });
});
