/**
 * The profile tools of the MCP front door (docs/mcp.md, Profiles), through the MCP SDK's client against the compiled
 * daemon: an assistant sees the saved logins and their health by name or id, never a cookie or a stored value, gets
 * the REST API's refusals as tool errors, and sees nothing of another organisation's. run_task takes a profile.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiDaemon } from '../api/harness.js';
import type { TestDaemon } from '../fixtures/test-daemon.js';
import { connectWithKey, structured, toolError } from './harness.js';

const SESSION = 'mcp-session-7c2e9a4f1b8d3e6a';
const TOKEN = 'mcp-stored-token-4a9e2c7f1d8b';

let d: TestDaemon;
let client: Client;
let profileId: string;
/** Every tool result's text the suite saw, searched for the state's values at the end. */
const results: string[] = [];

async function call(on: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const result = (await on.callTool({ name, arguments: args })) as CallToolResult;
  results.push(JSON.stringify(result));
  return result;
}

beforeAll(async () => {
  d = await startApiDaemon();
  client = await connectWithKey(d.url, d.key);
  const made = await d.api('POST', '/v1/profiles', {
    name: 'acme',
    state: {
      cookies: [{ name: 'sid', value: SESSION, domain: 'portal.example.com', path: '/', expires: -1, httpOnly: true, secure: true, sameSite: 'Lax' }],
      origins: [{ origin: 'https://portal.example.com', localStorage: [{ name: 'token', value: TOKEN }] }],
    },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  profileId = made.body.id;
});

afterAll(async () => {
  await client?.close();
  await d?.cleanup();
});

describe('the profile tools', () => {
  it('lists the profiles with their sites and health, never their state', async () => {
    const list = structured(await call(client, 'list_profiles', {}));
    expect(list.data).toHaveLength(1);
    expect(list.data[0]).toMatchObject({ id: profileId, name: 'acme', has_state: true, origins: ['https://portal.example.com', 'portal.example.com'], health: 'unknown' });
    expect(Object.keys(list.data[0])).not.toContain('state');
  });

  it('gets a profile by its name or its id, and answers not_found_error for a name there is none of', async () => {
    expect(structured(await call(client, 'get_profile', { profile: 'acme' }))).toMatchObject({ id: profileId, saved_via: 'import' });
    expect(structured(await call(client, 'get_profile', { profile: profileId }))).toMatchObject({ name: 'acme' });
    expect(toolError(await call(client, 'get_profile', { profile: 'nowhere' }))).toMatchObject({ type: 'not_found_error', code: 'resource_missing' });
  });

  it("answers check_profile's refusal for a profile with no check as the REST API does", async () => {
    expect(toolError(await call(client, 'check_profile', { profile: 'acme' }))).toMatchObject({ type: 'invalid_request_error', code: 'profile_has_no_check', param: 'check' });
  });

  it('lets run_task name a profile, and refuses a name that is no profile name', async () => {
    const { tools } = await client.listTools();
    for (const name of ['run_task', 'run_job']) expect(tools.find((t) => t.name === name)!.inputSchema.properties).toHaveProperty('profile');
    const bad = (await client.callTool({ name: 'run_task', arguments: { prompt: 'x', profile: 'no spaces allowed' } })) as CallToolResult;
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toContain('profile');
  });

  it("shows another organisation none of them, by id or by name", async () => {
    const other = d.createOrgWithKey(`mcp-profiles-other-${Date.now()}`);
    const theirs = await connectWithKey(d.url, other.key);
    try {
      expect(structured(await call(theirs, 'list_profiles', {})).data).toEqual([]);
      for (const ref of [profileId, 'acme']) {
        for (const tool of ['get_profile', 'check_profile']) expect(toolError(await call(theirs, tool, { profile: ref })), `${tool} ${ref}`).toMatchObject({ type: 'not_found_error' });
      }
    } finally {
      await theirs.close();
    }
  });

  it('never answered a cookie or a stored value', () => {
    expect(results.length).toBeGreaterThan(8);
    for (const text of results) expect(text).not.toMatch(new RegExp(`${SESSION}|${TOKEN}`));
  });
});
