/**
 * The tools of an mcp connection can be seen without starting a run (issue 21, item 15): GET
 * /v1/connections/{id}/tools and `errand connections tools <name>`, against the MCP reference server on loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, startApiDaemon } from '../api/harness.js';
import { runCli } from '../cli/run-cli.js';
import { startEverything, type EverythingFixture } from '../fixtures/mcp-everything.js';
import type { TestDaemon } from '../fixtures/test-daemon.js';

const TOKEN = 'tools_tok_4Rz8Lq2w';
let mcp: EverythingFixture;
let d: TestDaemon;
let connectionId: string;

beforeAll(async () => {
  mcp = await startEverything({ token: TOKEN });
  d = await startApiDaemon({ ERRAND_CONNECTIONS_MCP_CONNECT_TIMEOUT_S: '5' });
  const made = await d.api('POST', '/v1/connections', { name: 'everything', type: 'mcp', url: mcp.httpUrl, secret: TOKEN, headers: { Authorization: 'Bearer ${SECRET}' } });
  expect(made.body.auth_status, JSON.stringify(made.body)).toBe('authenticated');
  connectionId = made.body.id;
});
afterAll(async () => {
  await d?.cleanup();
  await mcp?.close();
});

const cli = (...args: string[]) => runCli(['--home', d.home, ...args], { env: { ERRAND_API_URL: d.url, ERRAND_API_KEY: d.key } });

describe('GET /v1/connections/{id}/tools', () => {
  it("answers the server's tools under the names runs see, with their descriptions and input schemas", async () => {
    const res = await d.api('GET', `/v1/connections/${connectionId}/tools`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'connection_tools', connection_id: connectionId, auth_status: 'authenticated' });
    const echo = res.body.data.find((t: { tool: string }) => t.tool === 'echo');
    expect(echo).toEqual({ name: 'everything__echo', tool: 'echo', title: expect.anything(), description: expect.any(String), input_schema: expect.objectContaining({ type: 'object' }) });
    expect(res.body.data.length).toBeGreaterThan(1);
    expect(JSON.stringify(res.body)).not.toContain(TOKEN);
  });

  it('says why there are none when the server refuses the credentials, and records it on the connection', async () => {
    mcp.token = 'rotated-by-the-server';
    try {
      const res = await d.api('GET', `/v1/connections/${connectionId}/tools`);
      expect(res.body).toMatchObject({ auth_status: 'failed', auth_detail: expect.stringContaining('refused the credentials'), data: [] });
      expect((await d.api('GET', `/v1/connections/${connectionId}`)).body.auth_status).toBe('failed');
    } finally {
      mcp.token = TOKEN;
    }
  });

  it('answers 400 for a connection that is not an mcp one, and 404 for one of another organisation', async () => {
    const token = await d.api('POST', '/v1/connections', { name: 'plain', type: 'token', secret: 'plain-secret-value' });
    expectError(await d.api('GET', `/v1/connections/${token.body.id}/tools`), 400, { type: 'invalid_request_error', code: 'not_an_mcp_connection' });
    const other = d.createOrgWithKey('other-tools');
    expectError(await d.api('GET', `/v1/connections/${connectionId}/tools`, undefined, { key: other.key }), 404, { type: 'not_found_error' });
  });
});

describe('errand connections tools', () => {
  it('lists them by connection name, and as the API answered with --json', async () => {
    const human = await cli('connections', 'tools', 'everything');
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout.split('\n')[0]).toMatch(/^NAME IN RUNS\s+TOOL\s+DESCRIPTION$/);
    expect(human.stdout).toMatch(/^everything__echo\s+echo\s+\S/m);
    const json = await cli('connections', 'tools', 'everything', '--json');
    expect(json.json()).toMatchObject({ object: 'connection_tools', connection_id: connectionId });
  });
});
