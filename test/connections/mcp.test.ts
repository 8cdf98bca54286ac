import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolResults, toolUse, type AnthropicRequest } from '../fixtures/scripted-anthropic.js';
import { startEverything, type EverythingFixture } from '../fixtures/mcp-everything.js';
import type { ApiResponse } from '../fixtures/test-daemon.js';
import { createRun, startEngine, waitForRun, type EngineHarness } from '../engine/harness.js';

let h: EngineHarness;
let mcp: EverythingFixture;
const TOKEN = 'mcp_tok_Hk38sLq0Zp2V';

beforeAll(async () => {
  mcp = await startEverything({ token: TOKEN });
  h = await startEngine({ env: { ERRAND_CONNECTIONS_MCP_CONNECT_TIMEOUT_S: '3', ERRAND_CONNECTIONS_MCP_CALL_TIMEOUT_S: '2' } });
});
afterAll(async () => {
  await h?.close();
  await mcp?.close();
});

/** A fresh organisation per scenario: every enabled connection applies to every run of its organisation. */
function org(name: string): { key: string; api: (method: string, path: string, body?: unknown) => Promise<ApiResponse> } {
  const { key } = h.daemon.createOrgWithKey(name);
  return { key, api: (method, path, body) => h.daemon.api(method, path, body, { key }) };
}

function mcpBody(name: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, type: 'mcp', url: mcp.httpUrl, secret: TOKEN, headers: { Authorization: 'Bearer ${SECRET}' }, ...overrides };
}

const toolNames = (request: AnthropicRequest): string[] => (request.body.tools ?? []).map((t) => t.name);

describe('checking an mcp connection', () => {
  it('connects over streamable HTTP with ${SECRET} substituted, and says authenticated', async () => {
    const o = org('mcp-check-http');
    const before = mcp.requests.length;
    const res = await o.api('POST', '/v1/connections', mcpBody('everything'));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ auth_status: 'authenticated', transport: 'http', headers: { Authorization: 'Bearer ${SECRET}' } });
    expect(res.body.auth_detail).toMatch(/^connected over streamable HTTP; \d+ tools$/);
    const seen = mcp.requests.slice(before);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((r) => r.authorised)).toBe(true);
  });

  it('says failed, with the reason, when the server refuses the credentials', async () => {
    const res = await org('mcp-check-401').api('POST', '/v1/connections', mcpBody('wrong', { secret: 'not_the_token' }));
    expect(res.body).toMatchObject({ auth_status: 'failed' });
    expect(res.body.auth_detail).toBe('the server refused the credentials (HTTP 401): check the secret and headers');
  });

  it('speaks the older HTTP+SSE transport when told to, and falls back to it when the URL is not a streamable endpoint', async () => {
    const o = org('mcp-check-sse');
    const sse = await o.api('POST', '/v1/connections', mcpBody('sse', { url: mcp.sseUrl, transport: 'sse' }));
    expect(sse.body.auth_detail).toMatch(/^connected over HTTP\+SSE; \d+ tools$/);
    const fallback = await o.api('POST', '/v1/connections', mcpBody('fallback', { url: mcp.sseUrl }));
    expect(fallback.body).toMatchObject({ auth_status: 'authenticated', transport: 'http' });
    expect(fallback.body.auth_detail).toMatch(/^connected over HTTP\+SSE/);
  });

  it('checks again on demand and on PATCH, following the server', async () => {
    const o = org('mcp-recheck');
    const made = await o.api('POST', '/v1/connections', mcpBody('rechecked'));
    mcp.token = 'rotated-by-the-server';
    try {
      const refused = await o.api('POST', `/v1/connections/${made.body.id}/check`);
      expect(refused.body).toMatchObject({ auth_status: 'failed' });
      const patched = await o.api('PATCH', `/v1/connections/${made.body.id}`, { secret: 'rotated-by-the-server' });
      expect(patched.body).toMatchObject({ auth_status: 'authenticated', has_secret: true });
    } finally {
      mcp.token = TOKEN;
    }
  });
});

describe('a run with an mcp connection', () => {
  it("offers the server's tools as <connection>__<tool>, and the agent's call is a step with the server's answer", async () => {
    const o = org('mcp-run');
    await o.api('POST', '/v1/connections', mcpBody('everything'));
    const start = h.model.requests.length;
    h.model.script([
      toolUse('everything__echo', { message: 'hello from the agent' }),
      () => toolUse('everything__get-sum', { a: 2, b: 40 }),
      (request: AnthropicRequest) => toolUse('finish', { result: { said: toolResults(request)[0]!.text }, confidence: 'high' }),
    ]);
    const runId = await createRun(h.daemon, { prompt: 'Use the MCP tools', connections: ['everything'] }, o.key);
    const run = await waitForRun(h.daemon, runId, undefined, undefined, o.key);
    expect(run.status, JSON.stringify(run)).toBe('succeeded');
    expect(run.result.said).toMatch(/42/);
    const requests = h.model.requests.slice(start);
    expect(toolNames(requests[0]!)).toEqual(expect.arrayContaining(['browser', 'run_code', 'everything__echo', 'everything__get-sum', 'finish']));
    expect(toolResults(requests[1]!)[0]).toMatchObject({ text: 'Echo: hello from the agent', isError: false });
    for (const request of requests) expect(JSON.stringify(request)).not.toContain(TOKEN);
    const steps = await h.daemon.api('GET', `/v1/runs/${runId}/steps`, undefined, { key: o.key });
    const echo = steps.body.data.find((s: { name: string }) => s.name === 'everything__echo');
    expect(echo).toMatchObject({ kind: 'tool', input: { message: 'hello from the agent' }, output: 'Echo: hello from the agent', is_error: false });
  });

  it('checks the connection again when a call is refused with 401, so its status stops saying authenticated', async () => {
    const o = org('mcp-401-midrun');
    const made = await o.api('POST', '/v1/connections', mcpBody('flaky'));
    const start = h.model.requests.length;
    h.model.script([
      () => {
        // The server stops accepting the token between the run's connect and its call.
        mcp.token = 'revoked-meanwhile';
        return toolUse('flaky__echo', { message: 'x' });
      },
      (request: AnthropicRequest) => toolUse('finish', { result: { error: toolResults(request)[0]!.text }, confidence: 'low' }),
    ]);
    try {
      const run = await waitForRun(h.daemon, await createRun(h.daemon, { prompt: 'Echo' }, o.key), undefined, undefined, o.key);
      expect(run.status).toBe('succeeded');
      expect(run.result.error).toMatch(/refused the call \(HTTP 401\); the connection flaky is now failed/);
      expect(toolResults(h.model.requests[start + 1]!)[0]!.isError).toBe(true);
      expect((await o.api('GET', `/v1/connections/${made.body.id}`)).body).toMatchObject({ auth_status: 'failed' });
    } finally {
      mcp.token = TOKEN;
    }
  });

  it('goes on without a server that hangs mid-run, once the call has timed out', async () => {
    const o = org('mcp-hang-unnamed');
    await o.api('POST', '/v1/connections', mcpBody('hangs'));
    const start = h.model.requests.length;
    h.model.script([
      () => {
        mcp.hang(true);
        return toolUse('hangs__echo', { message: 'anyone there?' });
      },
      () => toolUse('hangs__echo', { message: 'again?' }),
      (request: AnthropicRequest) => toolUse('finish', { result: { note: toolResults(request)[0]!.text }, confidence: 'low' }),
    ]);
    try {
      const run = await waitForRun(h.daemon, await createRun(h.daemon, { prompt: 'Echo' }, o.key), undefined, undefined, o.key);
      expect(run.status).toBe('succeeded');
      const first = toolResults(h.model.requests[start + 1]!)[0]!;
      expect(first).toMatchObject({ isError: true });
      expect(first.text).toMatch(/did not answer within 2 s; the tools of hangs are unavailable for the rest of this run/);
      expect(run.result.note).toMatch(/hangs__echo is unavailable for the rest of this run/);
    } finally {
      mcp.hang(false);
    }
  });

  it('fails with auth_required when the server of a named connection hangs mid-run', async () => {
    const o = org('mcp-hang-named');
    await o.api('POST', '/v1/connections', mcpBody('needed'));
    h.model.script([
      () => {
        mcp.hang(true);
        return toolUse('needed__echo', { message: 'anyone there?' });
      },
    ]);
    try {
      const run = await waitForRun(h.daemon, await createRun(h.daemon, { prompt: 'Echo', connections: ['needed'] }, o.key), undefined, undefined, o.key);
      expect(run).toMatchObject({ status: 'failed', failure_reason: 'auth_required' });
      expect(run.failure_detail).toMatch(/^the connection 'needed' stopped working during the run: the MCP server of needed failed: the server did not answer within 2 s/);
    } finally {
      mcp.hang(false);
    }
  });
});

describe('an mcp server that is down when the run starts', () => {
  let down: EverythingFixture;
  beforeAll(async () => {
    down = await startEverything({ token: TOKEN });
  });
  afterAll(async () => {
    await down?.close();
  });

  it('leaves its tools out of a run that did not name it, and marks the connection failed', async () => {
    const o = org('mcp-down-unnamed');
    const made = await o.api('POST', '/v1/connections', mcpBody('gone', { url: down.httpUrl }));
    expect(made.body.auth_status).toBe('authenticated');
    await down.stop();
    const start = h.model.requests.length;
    h.model.script([toolUse('finish', { result: { ok: true }, confidence: 'high' })]);
    const run = await waitForRun(h.daemon, await createRun(h.daemon, { prompt: 'Anything' }, o.key), undefined, undefined, o.key);
    expect(run.status).toBe('succeeded');
    expect(toolNames(h.model.requests[start]!).filter((n) => n.startsWith('gone__'))).toEqual([]);
    const after = (await o.api('GET', `/v1/connections/${made.body.id}`)).body;
    expect(after.auth_status).toBe('failed');
    expect(after.auth_detail).toMatch(/could not reach the server/);
  });

  it('fails a run that named it with auth_required before any model call or sandbox', async () => {
    const o = org('mcp-down-named');
    await o.api('POST', '/v1/connections', mcpBody('gone-named', { url: down.httpUrl }));
    const start = h.model.requests.length;
    const runId = await createRun(h.daemon, { prompt: 'Anything', connections: ['gone-named'] }, o.key);
    const run = await waitForRun(h.daemon, runId, undefined, undefined, o.key);
    expect(run).toMatchObject({ status: 'failed', failure_reason: 'auth_required', usage: { input_tokens: 0 } });
    expect(run.failure_detail).toMatch(/^the connection 'gone-named' could not be used: could not reach the server/);
    expect(h.model.requests.length).toBe(start);
    expect((await h.daemon.api('GET', `/v1/runs/${runId}/steps`, undefined, { key: o.key })).body.data).toEqual([]);
  });
});
