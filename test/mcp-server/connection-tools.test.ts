/**
 * The connection tools of the MCP front door, through the SDK's own client against the compiled daemon, with
 * hosted connect against oauth2-mock-server: the flow an assistant drives (a link for the person, then polling),
 * the REST API's refusals as tool errors, and the organisation boundary. No tool result may hold a secret.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiDaemon } from '../api/harness.js';
import { signInThrough, startOAuthProvider, type OAuthProviderFixture } from '../fixtures/oauth-provider.js';
import type { TestDaemon } from '../fixtures/test-daemon.js';
import { connectWithKey, structured, toolError } from './harness.js';

const TOKEN_SECRET = 'tok_mcp_tools_secret_1234567890';
const CLIENT_SECRET = 'acme-client-secret-for-mcp-tools';

let provider: OAuthProviderFixture;
let d: TestDaemon;
let client: Client;
/** Every tool result's text the suite saw, searched for secrets at the end. */
const results: string[] = [];

beforeAll(async () => {
  provider = await startOAuthProvider();
  d = await startApiDaemon({ ERRAND_OAUTH_PROVIDERS: JSON.stringify({ acme: provider.config(CLIENT_SECRET) }) });
  client = await connectWithKey(d.url, d.key);
});

afterAll(async () => {
  await client?.close();
  await d?.cleanup();
  await provider?.close();
});

async function call(on: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const result = (await on.callTool({ name, arguments: args })) as CallToolResult;
  results.push(JSON.stringify(result));
  return result;
}

describe('tools/list', () => {
  it('lists the connection tools after the core ones, none of which takes a secret', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    const first = names.indexOf('list_connections');
    expect(first).toBeGreaterThan(names.indexOf('list_projects'));
    expect(names.slice(first, first + 5)).toEqual(['list_connections', 'get_connection', 'check_connection', 'connect_link', 'get_connect_link']);
    for (const tool of tools) expect(Object.keys(tool.inputSchema.properties ?? {}), tool.name).not.toContain('secret');
    expect(tools.find((t) => t.name === 'connect_link')!.inputSchema.required).toEqual(['provider']);
  });
});

describe('connect_link, then polling', () => {
  let connectionId: string;

  it('answers a single-use link for the person to open and a pending oauth connection', async () => {
    const link = structured(await call(client, 'connect_link', { provider: 'acme', name: 'acme-crm', env_var_name: 'CRM_TOKEN' }));
    expect(link).toMatchObject({ object: 'connection_link', connection_id: expect.stringMatching(/^conn_[0-9a-z]{26}$/) });
    expect(link.url).toMatch(new RegExp(`^${d.url}/v1/connect/clk_[0-9a-z]{26}\\?expires=\\d+&sig=[\\w-]+$`));
    expect(Date.parse(link.expires_at) - Date.now()).toBeGreaterThan(14 * 60_000);
    connectionId = link.connection_id;
    expect(structured(await call(client, 'get_connection', { connection_id: connectionId }))).toMatchObject({
      id: connectionId,
      type: 'oauth',
      provider: 'acme',
      name: 'acme-crm',
      env_var_name: 'CRM_TOKEN',
      auth_status: 'pending',
      has_secret: false,
    });
    // Checking a connection whose sign-in has not happened asks the provider nothing.
    expect(structured(await call(client, 'check_connection', { connection_id: connectionId }))).toMatchObject({ auth_status: 'pending' });
    expect(provider.tokenRequests).toEqual([]);

    const rest = await d.api('GET', `/v1/connections/${connectionId}`);
    expect(rest.body).toMatchObject({ type: 'oauth', auth_status: 'pending' });
  });

  it('shows the connection authenticated once the person signed in, and check_connection refreshes its token', async () => {
    const link = structured(await call(client, 'connect_link', { provider: 'acme', name: 'acme-crm' }));
    // The same provider and name: the same connection, connected again.
    expect(link.connection_id).toBe(connectionId);
    expect(structured(await call(client, 'get_connect_link', { link_id: link.id }))).toMatchObject({ id: link.id, connection_id: connectionId, status: 'pending', detail: null });
    expect(await signInThrough(link.url)).toContain('<h1>Connected</h1>');
    expect(structured(await call(client, 'get_connect_link', { link_id: link.id }))).toMatchObject({ status: 'authenticated' });

    const polled = structured(await call(client, 'get_connection', { connection_id: connectionId }));
    expect(polled).toMatchObject({ auth_status: 'authenticated', has_secret: true, auth_detail: 'connected through hosted connect' });
    const listed = structured(await call(client, 'list_connections', {}));
    expect(listed.data.find((c: { id: string }) => c.id === connectionId)).toMatchObject({ auth_status: 'authenticated' });

    const refreshes = provider.grants('refresh_token');
    const checked = structured(await call(client, 'check_connection', { connection_id: connectionId }));
    expect(checked).toMatchObject({ id: connectionId, auth_status: 'authenticated', has_secret: true });
    expect(provider.grants('refresh_token')).toBe(refreshes + 1);
    expect(Date.parse(checked.expires_at)).toBeGreaterThan(Date.now());
  });

  it('tells through get_connect_link that connecting the authenticated connection again failed, while the connection keeps its tokens', async () => {
    const link = structured(await call(client, 'connect_link', { provider: 'acme', name: 'acme-crm' }));
    provider.denyWith = 'access_denied';
    try {
      await signInThrough(link.url, 400);
    } finally {
      provider.denyWith = null;
    }
    expect(structured(await call(client, 'get_connect_link', { link_id: link.id }))).toMatchObject({ status: 'failed', detail: expect.stringContaining('access_denied') });
    expect(structured(await call(client, 'get_connection', { connection_id: connectionId }))).toMatchObject({ auth_status: 'authenticated', has_secret: true });
    expect(toolError(await call(client, 'get_connect_link', { link_id: `clk_${'0'.repeat(26)}` }))).toMatchObject({ type: 'not_found_error' });
  });

  it('refuses an unknown provider with the REST API\'s 400, naming the configured ones', async () => {
    const err = toolError(await call(client, 'connect_link', { provider: 'nosuch' }));
    expect(err).toMatchObject({ type: 'invalid_request_error', code: 'unknown_provider', param: 'provider' });
    expect(err.message).toContain('acme');
  });

  it('refuses a redirect_url, which an assistant has no page for, and a missing provider', async () => {
    expect(toolError(await call(client, 'connect_link', { provider: 'acme', redirect_url: 'https://example.com/back' }))).toMatchObject({
      code: 'unknown_parameter',
      param: 'redirect_url',
    });
    expect(toolError(await call(client, 'connect_link', {}))).toMatchObject({ code: 'missing_parameter', param: 'provider' });
  });

  it('refuses a project that is not the organisation\'s', async () => {
    const err = toolError(await call(client, 'connect_link', { provider: 'acme', name: 'elsewhere', project_id: `proj_${'0'.repeat(26)}` }));
    expect(err).toMatchObject({ type: 'not_found_error', param: 'project_id' });
  });
});

describe('list_connections and check_connection', () => {
  let tokenId: string;

  beforeAll(async () => {
    const created = await d.api('POST', '/v1/connections', { name: 'billing', type: 'token', secret: TOKEN_SECRET, env_var_name: 'BILLING_TOKEN' });
    expect(created.status).toBe(201);
    tokenId = created.body.id;
  });

  it('lists the connections newest first, in pages, with has_secret but never the secret', async () => {
    const first = structured(await call(client, 'list_connections', { limit: 1 }));
    expect(first).toMatchObject({ object: 'list', has_more: true, next_cursor: tokenId });
    expect(first.data).toEqual([expect.objectContaining({ id: tokenId, type: 'token', has_secret: true, env_var_name: 'BILLING_TOKEN' })]);
    const next = structured(await call(client, 'list_connections', { limit: 1, cursor: first.next_cursor }));
    expect(next.data.map((c: { type: string }) => c.type)).toEqual(['oauth']);
    expect(JSON.stringify([first, next])).not.toContain(TOKEN_SECRET);
  });

  it('checks a token connection by its secret, and one whose secret was removed is pending', async () => {
    expect(structured(await call(client, 'check_connection', { connection_id: tokenId }))).toMatchObject({ auth_status: 'authenticated', auth_detail: 'a secret is set' });
    expect((await d.api('PATCH', `/v1/connections/${tokenId}`, { secret: null })).status).toBe(200);
    expect(structured(await call(client, 'check_connection', { connection_id: tokenId }))).toMatchObject({ auth_status: 'pending', has_secret: false });
    expect((await d.api('PATCH', `/v1/connections/${tokenId}`, { secret: TOKEN_SECRET })).status).toBe(200);
  });

  it('answers an unknown id as not found', async () => {
    for (const tool of ['get_connection', 'check_connection']) {
      expect(toolError(await call(client, tool, { connection_id: `conn_${'0'.repeat(26)}` })), tool).toMatchObject({ type: 'not_found_error' });
    }
  });
});

describe('another organisation', () => {
  it('sees none of these connections, and its links make connections of its own', async () => {
    const other = d.createOrgWithKey(`mcp-conn-other-${Date.now()}`);
    const theirs = await connectWithKey(d.url, other.key);
    try {
      expect(structured(await call(theirs, 'list_connections', {})).data).toEqual([]);
      const ours = structured(await call(client, 'list_connections', {})).data as { id: string }[];
      expect(ours.length).toBe(2);
      for (const { id } of ours) {
        for (const tool of ['get_connection', 'check_connection']) {
          expect(toolError(await call(theirs, tool, { connection_id: id })), `${tool} ${id}`).toMatchObject({ type: 'not_found_error' });
        }
      }
      // The same provider and name as ours: a connection of its own, not ours connected again.
      const link = structured(await call(theirs, 'connect_link', { provider: 'acme', name: 'acme-crm' }));
      expect(ours.map((c) => c.id)).not.toContain(link.connection_id);
      expect(structured(await call(theirs, 'list_connections', {})).data.map((c: { id: string }) => c.id)).toEqual([link.connection_id]);
      expect(structured(await call(client, 'list_connections', {})).data).toHaveLength(2);
    } finally {
      await theirs.close();
    }
  });
});

describe('a daemon without OAuth providers', () => {
  it('says hosted connect is disabled', async () => {
    const bare = await startApiDaemon();
    try {
      const bareClient = await connectWithKey(bare.url, bare.key);
      const err = toolError(await call(bareClient, 'connect_link', { provider: 'acme' }));
      expect(err).toMatchObject({ type: 'invalid_request_error', code: 'hosted_connect_disabled' });
      expect(structured(await call(bareClient, 'list_connections', {})).data).toEqual([]);
      await bareClient.close();
    } finally {
      await bare.cleanup();
    }
  });
});

describe('no secret anywhere', () => {
  it('finds no secret in any tool result: the token, the provider\'s tokens or its client secret', () => {
    const secrets = [TOKEN_SECRET, CLIENT_SECRET, ...provider.issued.flatMap((t) => [t.accessToken, t.refreshToken ?? ''])].filter((s) => s.length >= 6);
    expect(provider.issued.length).toBeGreaterThanOrEqual(2);
    expect(results.length).toBeGreaterThan(20);
    const text = results.join('\n');
    for (const secret of secrets) expect(text.includes(secret)).toBe(false);
  });
});
