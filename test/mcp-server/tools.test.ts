import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hold, reply, toolUse } from '../fixtures/scripted-anthropic.js';
import { startEngine, waitForRun, type EngineHarness } from '../engine/harness.js';
import { connectWithKey, INITIALIZE, rpc, structured, toolError } from './harness.js';
import { runCli } from '../cli/run-cli.js';

let h: EngineHarness;
let client: Client;

beforeAll(async () => {
  h = await startEngine({ env: { ERRAND_MCP_RUN_WAIT_S: '30' } });
  client = await connectWithKey(h.daemon.url, h.daemon.key);
});

afterAll(async () => {
  await client?.close();
  await h?.close();
});

interface SseEvent {
  id?: string;
  data?: any;
}

/** Reads SSE events from a stream until `enough` says so; then stops reading (the stream stays open). */
async function readEvents(body: ReadableStream<Uint8Array>, enough: (events: SseEvent[]) => boolean): Promise<SseEvent[]> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const events: SseEvent[] = [];
  let buffer = '';
  while (!enough(events)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the stream ended after ${JSON.stringify(events)}`);
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const event: SseEvent = {};
      for (const line of buffer.slice(0, end).split('\n')) {
        if (line.startsWith('id:')) event.id = line.slice(3).trim();
        if (line.startsWith('data:') && line.slice(5).trim() !== '') event.data = JSON.parse(line.slice(5));
      }
      buffer = buffer.slice(end + 2);
      events.push(event);
    }
  }
  void reader.cancel().catch(() => undefined);
  return events;
}

const finishWith = (result: object) => toolUse('finish', { result, confidence: 'high', matched_text: JSON.stringify(result) });

describe('the /mcp endpoint', () => {
  it('answers 401 with a challenge naming the protected resource metadata when no token is sent', async () => {
    const res = await fetch(`${h.daemon.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', ...INITIALIZE }) });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${h.daemon.url}/.well-known/oauth-protected-resource/mcp"`);
    expect(await res.json()).toMatchObject({ error: 'invalid_token' });
  });

  it('answers 401 with error="invalid_token" to a revoked or unknown key', async () => {
    const res = await rpc(h.daemon.url, `ek_${'0'.repeat(26)}_${'a'.repeat(43)}`, INITIALIZE);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token", error_description="[^"]+", resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp"$/);
  });

  it('answers a session only to the caller that opened it: another organisation gets 404', async () => {
    const init = await rpc(h.daemon.url, h.daemon.key, INITIALIZE);
    expect(init.status).toBe(200);
    const sessionId = init.headers.get('mcp-session-id')!;
    await init.text();
    const other = h.daemon.createOrgWithKey(`mcp-other-${Date.now()}`);
    const stolen = await rpc(h.daemon.url, other.key, { id: 2, method: 'tools/list' }, { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' });
    expect(stolen.status).toBe(404);
    const own = await rpc(h.daemon.url, h.daemon.key, { id: 2, method: 'tools/list' }, { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' });
    expect(own.status).toBe(200);
    expect(await own.text()).toContain('run_task');
  });

  it('answers 403 to a browser origin other than its own', async () => {
    const res = await rpc(h.daemon.url, h.daemon.key, INITIALIZE, { origin: 'http://evil.localhost:1234' });
    expect(res.status).toBe(403);
    const own = await rpc(h.daemon.url, h.daemon.key, INITIALIZE, { origin: new URL(h.daemon.url).origin });
    expect(own.status).toBe(200);
  });
});

describe('resumable streams', () => {
  it('replays what a broken stream missed to a client that comes back with Last-Event-ID', async () => {
    const init = await rpc(h.daemon.url, h.daemon.key, INITIALIZE);
    const session = { 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' };
    await init.text();
    expect((await rpc(h.daemon.url, h.daemon.key, { method: 'notifications/initialized' }, session)).status).toBe(202);

    const held = hold(finishWith({ resumed: true }));
    h.model.script([held]);
    const broken = new AbortController();
    const call = await fetch(`${h.daemon.url}/mcp`, {
      method: 'POST',
      signal: broken.signal,
      headers: { authorization: `Bearer ${h.daemon.key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...session },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'run_task', arguments: { prompt: 'Resume me' }, _meta: { progressToken: 'p7' } } }),
    });
    const first = await readEvents(call.body!, (events) => events.some((e) => e.id !== undefined));
    const cursor = first.find((e) => e.id !== undefined)!.id!;
    broken.abort();

    await held.arrived;
    held.release();
    const runs = (await h.daemon.api('GET', '/v1/runs?limit=1')).body.data;
    await waitForRun(h.daemon, runs[0].task_id);

    const resumed = await fetch(`${h.daemon.url}/mcp`, {
      headers: { authorization: `Bearer ${h.daemon.key}`, accept: 'text/event-stream', 'last-event-id': cursor, ...session },
    });
    expect(resumed.status).toBe(200);
    const replayed = await readEvents(resumed.body!, (events) => events.some((e) => e.data?.id === 7));
    const answer = replayed.find((e) => e.data?.id === 7)!.data;
    expect(answer.result.structuredContent).toMatchObject({ task_id: runs[0].task_id, status: 'succeeded', result: { resumed: true } });
    expect(replayed.filter((e) => e.data?.method === 'notifications/progress').length).toBeGreaterThan(0);
  });
});

describe('tools/list', () => {
  it('lists the tools, each with a description and a JSON Schema of its arguments', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['run_task', 'get_run', 'list_runs', 'cancel_run', 'list_jobs', 'run_job', 'list_projects', 'answer_run', 'get_run_files', 'list_connections', 'get_connection', 'check_connection', 'connect_link', 'get_connect_link', 'list_profiles', 'get_profile', 'check_profile', 'send_email', 'get_email', 'list_emails']);
    for (const tool of tools) {
      expect(tool.description!.length, tool.name).toBeGreaterThan(80);
      expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(tool.name.startsWith('get_') || tool.name.startsWith('list_'));
    }
    const runTask = tools.find((t) => t.name === 'run_task')!;
    expect(runTask.inputSchema.required).toEqual(['prompt']);
    expect(runTask.inputSchema.properties!.wait_seconds).toMatchObject({ type: 'integer', minimum: 0, maximum: 30 });
  });
});

describe('run_task', () => {
  it('runs the task and answers its envelope, reporting progress on the way', async () => {
    h.model.script([finishWith({ answer: 42 })]);
    const progress: string[] = [];
    const result = await client.callTool(
      { name: 'run_task', arguments: { prompt: 'Compute {{a}} times {{b}}', inputs: { a: 6, b: 7 }, output_schema: { type: 'object', required: ['answer'], properties: { answer: { type: 'integer' } } } } },
      undefined,
      { onprogress: (p) => void progress.push(p.message ?? '') },
    );
    const envelope = structured(result);
    expect(envelope).toMatchObject({ object: 'run', status: 'succeeded', result: { answer: 42 }, confidence: 'high', failure_reason: null });
    expect(envelope.usage).toMatchObject({ input_tokens: 10, output_tokens: 5 });
    expect(JSON.parse((result.content as { text: string }[])[0]!.text)).toEqual(envelope);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress[0]).toMatch(new RegExp(`^Run ${envelope.task_id} is (queued|running)`));
    // An ordinary run: the REST API answers the same envelope.
    const rest = await h.daemon.api('GET', `/v1/runs/${envelope.task_id}`);
    expect(rest.body).toMatchObject({ status: 'succeeded', result: { answer: 42 } });
    expect(JSON.stringify(h.model.requests.at(-1)!.body.messages[0])).toContain('Compute 6 times 7');
  });

  it('answers the task id of a run that outlasts wait_seconds, which get_run then follows to its end', async () => {
    const held = hold(finishWith({ done: true }));
    h.model.script([held]);
    const started = structured(await client.callTool({ name: 'run_task', arguments: { prompt: 'Take your time', wait_seconds: 0 } }));
    expect(started).toMatchObject({ task_id: expect.stringMatching(/^run_/), status: expect.stringMatching(/^(queued|running)$/), poll_url: `${h.daemon.url}/v1/runs/${started.task_id}` });
    expect(started.message).toContain('get_run');
    await held.arrived;
    expect(structured(await client.callTool({ name: 'get_run', arguments: { task_id: started.task_id } }))).toMatchObject({ status: 'running' });
    held.release();
    await waitForRun(h.daemon, started.task_id);
    expect(structured(await client.callTool({ name: 'get_run', arguments: { task_id: started.task_id } }))).toMatchObject({ status: 'succeeded', result: { done: true } });
  });

  it('answers the same run for a repeated idempotency_key', async () => {
    h.model.script([finishWith({ n: 1 })]);
    const first = structured(await client.callTool({ name: 'run_task', arguments: { prompt: 'Once only', idempotency_key: `mcp-idem-${Date.now()}` } }));
    const key = `mcp-idem-${first.task_id}`;
    h.model.script([finishWith({ n: 2 })]);
    const a = structured(await client.callTool({ name: 'run_task', arguments: { prompt: 'Once', idempotency_key: key } }));
    const b = structured(await client.callTool({ name: 'run_task', arguments: { prompt: 'Once', idempotency_key: key } }));
    expect(b.task_id).toBe(a.task_id);
    expect(b).toMatchObject({ status: 'succeeded', result: { n: 2 } });
  });

  it('fails with the argument named when an argument is invalid, and starts nothing', async () => {
    const before = (await h.daemon.api('GET', '/v1/runs')).body.data.length;
    const result = await client.callTool({ name: 'run_task', arguments: { prompt: 'x', model: 'gpt-4' } });
    expect(toolError(result)).toMatchObject({ type: 'invalid_request_error', code: 'invalid_arguments', param: 'model' });
    expect(toolError(await client.callTool({ name: 'run_task', arguments: {} }))).toMatchObject({ code: 'missing_parameter', param: 'prompt' });
    expect(toolError(await client.callTool({ name: 'run_task', arguments: { prompt: 'x', colour: 'red' } }))).toMatchObject({ code: 'unknown_parameter', param: 'colour' });
    expect(toolError(await client.callTool({ name: 'run_task', arguments: { prompt: 'Hi {{name}}' } }))).toMatchObject({ param: 'inputs.name' });
    expect((await h.daemon.api('GET', '/v1/runs')).body.data.length).toBe(before);
  });

  it('answers a protocol error for a tool that does not exist', async () => {
    await expect(client.callTool({ name: 'rm_rf', arguments: {} })).rejects.toThrow(/Unknown tool: rm_rf/);
  });
});

describe('get_run, list_runs and cancel_run', () => {
  it('answers not found for a run of another organisation', async () => {
    h.model.script([finishWith({ mine: true })]);
    const mine = structured(await client.callTool({ name: 'run_task', arguments: { prompt: 'Mine' } }));
    const other = h.daemon.createOrgWithKey(`mcp-tenant-${Date.now()}`);
    const theirs = await connectWithKey(h.daemon.url, other.key);
    try {
      expect(toolError(await theirs.callTool({ name: 'get_run', arguments: { task_id: mine.task_id } }))).toMatchObject({ type: 'not_found_error', code: 'resource_missing' });
      expect(toolError(await theirs.callTool({ name: 'cancel_run', arguments: { task_id: mine.task_id } }))).toMatchObject({ type: 'not_found_error' });
      expect(structured(await theirs.callTool({ name: 'list_runs', arguments: {} })).data).toEqual([]);
    } finally {
      await theirs.close();
    }
  });

  it('cancels a running run, and lists it', async () => {
    const held = hold(finishWith({ never: true }));
    h.model.script([held]);
    const started = structured(await client.callTool({ name: 'run_task', arguments: { prompt: 'Cancel me', name: 'to cancel', wait_seconds: 0 } }));
    await held.arrived;
    const cancelled = structured(await client.callTool({ name: 'cancel_run', arguments: { task_id: started.task_id } }));
    expect(cancelled).toMatchObject({ task_id: started.task_id, status: 'cancelled' });
    held.release();
    const list = structured(await client.callTool({ name: 'list_runs', arguments: { limit: 2 } }));
    expect(list).toMatchObject({ object: 'list', has_more: true, next_cursor: list.data[1].task_id });
    expect(list.data[0]).toMatchObject({ task_id: started.task_id, status: 'cancelled', name: 'to cancel' });
    const succeeded = structured(await client.callTool({ name: 'list_runs', arguments: {} })).data.find((r: { status: string }) => r.status === 'succeeded');
    expect(toolError(await client.callTool({ name: 'cancel_run', arguments: { task_id: succeeded.task_id } }))).toMatchObject({ type: 'conflict_error', code: 'run_not_cancellable' });
  });
});

describe('list_projects, list_jobs and run_job', () => {
  it("says of every record it answers whether it is live or of test mode, as the REST API does", async () => {
    const projects = structured(await client.callTool({ name: 'list_projects', arguments: {} }));
    expect(projects.object).toBe('list');
    expect(projects.livemode).toBeUndefined();
    expect(projects.data.length).toBeGreaterThan(0);
    expect(projects.data.every((p: { livemode: unknown }) => p.livemode === true)).toBe(true);
    h.daemon.createOrgWithKey('mcp-test-mode');
    const minted = await runCli(['--home', h.daemon.home, 'keys', 'create', '--test', '--org', 'mcp-test-mode', '--json']);
    expect(minted.code).toBe(0);
    const testClient = await connectWithKey(h.daemon.url, minted.json().key);
    try {
      const testProjects = structured(await testClient.callTool({ name: 'list_projects', arguments: {} }));
      expect(testProjects.data.length).toBeGreaterThan(0);
      expect(testProjects.data.every((p: { livemode: unknown }) => p.livemode === false)).toBe(true);
    } finally {
      await testClient.close();
    }
  });

  it('lists the projects and jobs, and runs a job with its inputs', async () => {
    const projects = structured(await client.callTool({ name: 'list_projects', arguments: {} }));
    const apiRuns = projects.data.find((p: { is_default: boolean }) => p.is_default);
    expect(apiRuns).toMatchObject({ object: 'project', name: 'API Runs' });
    const job = await h.daemon.api('POST', '/v1/jobs', {
      project_id: apiRuns.id,
      name: 'Greeter',
      prompt: 'Greet {{who}}',
      input_schema: { type: 'object', required: ['who'], properties: { who: { type: 'string' } } },
    });
    expect(job.status).toBe(201);
    const jobs = structured(await client.callTool({ name: 'list_jobs', arguments: { project_id: apiRuns.id } }));
    expect(jobs.data[0]).toMatchObject({ id: job.body.id, name: 'Greeter', input_schema: { required: ['who'] } });

    expect(toolError(await client.callTool({ name: 'run_job', arguments: { job_id: job.body.id } }))).toMatchObject({ code: 'missing_input', param: 'inputs.who' });
    h.model.script([finishWith({ greeting: 'Hello, Ada' })]);
    const run = structured(await client.callTool({ name: 'run_job', arguments: { job_id: job.body.id, inputs: { who: 'Ada' } } }));
    expect(run).toMatchObject({ status: 'succeeded', job_id: job.body.id, name: 'Greeter', result: { greeting: 'Hello, Ada' } });
    expect(JSON.stringify(h.model.requests.at(-1)!.body.messages[0])).toContain('Greet Ada');
  });
});

describe('max_cost_usd on run_task and run_job', () => {
  /** A model turn that runs code and asks for more: the agent would go on calling tools until stopped. */
  const busyTurn = () => reply(toolUse('run_code', { language: 'bash', code: 'echo looking' }), { usage: { input_tokens: 10_000, output_tokens: 500 } });

  it('stops a run_task run at its max_cost_usd, failed with failure_code budget_exceeded, below the limit', async () => {
    h.model.script(Array.from({ length: 12 }, busyTurn));
    const before = h.model.requests.length;
    const run = structured(await client.callTool({ name: 'run_task', arguments: { prompt: 'Look around', model: 'sonnet', max_cost_usd: 0.2 } }));
    const calls = h.model.requests.length - before;
    expect(h.model.discard()).toBe(12 - calls);
    expect(run).toMatchObject({ status: 'failed', failure_reason: 'timeout', failure_code: 'budget_exceeded', max_cost_usd: 0.2 });
    expect(run.failure_detail).toContain('max_cost_usd of 0.2 USD');
    expect(run.usage.cost_usd).toBeLessThanOrEqual(0.2);
    expect(calls).toBeGreaterThan(0);
  });

  it('gives a run_job run the max_cost_usd it names over its job\'s, and the job\'s without one', async () => {
    const project = (await h.daemon.api('GET', '/v1/projects')).body.data.find((p: { is_default: boolean }) => p.is_default);
    const job = await h.daemon.api('POST', '/v1/jobs', { project_id: project.id, name: 'Capped', prompt: 'Say ok', max_cost_usd: 1.5 });
    expect(job.status).toBe(201);
    h.model.script([finishWith({ ok: true }), finishWith({ ok: true })]);
    const own = structured(await client.callTool({ name: 'run_job', arguments: { job_id: job.body.id, max_cost_usd: 0.4 } }));
    expect(own).toMatchObject({ status: 'succeeded', max_cost_usd: 0.4 });
    const fromJob = structured(await client.callTool({ name: 'run_job', arguments: { job_id: job.body.id } }));
    expect(fromJob).toMatchObject({ status: 'succeeded', max_cost_usd: 1.5 });
  });

  it('fails naming max_cost_usd, and starts nothing, for a limit below the first call\'s cost or not above 0', async () => {
    const before = h.model.requests.length;
    expect(toolError(await client.callTool({ name: 'run_task', arguments: { prompt: 'x', model: 'sonnet', max_cost_usd: 0.001 } }))).toMatchObject({ code: 'max_cost_too_low', param: 'max_cost_usd' });
    expect(toolError(await client.callTool({ name: 'run_task', arguments: { prompt: 'x', max_cost_usd: 0 } }))).toMatchObject({ param: 'max_cost_usd' });
    expect(h.model.requests.length).toBe(before);
  });
});
