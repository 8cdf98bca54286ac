import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseKey } from '../../src/keys/api-key.js';
import { startApiDaemon } from '../api/harness.js';
import type { TestDaemon } from '../fixtures/test-daemon.js';
import { INITIALIZE, rpc } from '../mcp-server/harness.js';
import { openAuthorize, pkce, REDIRECT_URI, registerClient, signIn, standardAuthorize, submitConsent, tokenRequest } from '../mcp-server/oauth-flow.js';
import { runCli } from './run-cli.js';

let d: TestDaemon;
const cli = (args: string[], env: Record<string, string> = {}) => runCli(['--home', d.home, ...args], { env });

beforeAll(async () => {
  d = await startApiDaemon();
});

afterAll(async () => {
  await d?.cleanup();
});

async function mcpStatus(token: string): Promise<number> {
  const res = await rpc(d.url, token, INITIALIZE);
  await res.text();
  return res.status;
}

describe('errand mcp approve', () => {
  it('approves the sign-in a consent page shows, under the key the CLI uses, after which the browser may go on', async () => {
    const client = await registerClient(d.url, { client_name: 'Approved by code' });
    const { verifier, challenge } = pkce();
    const page = await openAuthorize(standardAuthorize(d.url, client, challenge));
    const other = d.createOrgWithKey(`cli-approve-${Date.now()}`);

    const approved = await cli(['mcp', 'approve', page.userCode!, '--yes', '--json'], { ERRAND_API_KEY: other.key });
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.json()).toMatchObject({ object: 'mcp_approval', client_id: client.client_id, client_name: 'Approved by code', org_id: other.orgId, key_id: other.keyId, redirect_uri: REDIRECT_URI });

    const again = await cli(['mcp', 'approve', page.userCode!, '--yes'], { ERRAND_API_KEY: other.key });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('approved already');

    const allowed = await submitConsent(d.url, { request: page.request!, action: 'approve' });
    const code = new URL(allowed.location!).searchParams.get('code')!;
    const tokens = await tokenRequest(d.url, { grant_type: 'authorization_code', client_id: client.client_id, code, redirect_uri: REDIRECT_URI, code_verifier: verifier });
    expect(tokens.status).toBe(200);
    const listed = (await cli(['mcp', 'clients', '--json', '--org', other.orgId])).json();
    expect(listed.data).toMatchObject([{ client_id: client.client_id, org_id: other.orgId, key_id: other.keyId, revoked_at: null }]);
  });

  it('uses the key saved by the first start when no key is given, and --key picks another', async () => {
    const client = await registerClient(d.url);
    const page = await openAuthorize(standardAuthorize(d.url, client, pkce().challenge));
    const approved = await cli(['mcp', 'approve', page.userCode!, '--yes', '--json']);
    expect(approved.json()).toMatchObject({ key_id: parseKey(d.key)!.keyId, org_id: d.orgId });

    const second = await openAuthorize(standardAuthorize(d.url, client, pkce().challenge));
    const other = d.createOrgWithKey(`cli-key-flag-${Date.now()}`);
    expect((await cli(['mcp', 'approve', second.userCode!, '--yes', '--key', other.keyId, '--json'])).json()).toMatchObject({ key_id: other.keyId });
  });

  it('asks for --yes when it cannot ask, and approves nothing', async () => {
    const client = await registerClient(d.url, { client_name: 'Needs a yes' });
    const page = await openAuthorize(standardAuthorize(d.url, client, pkce().challenge));
    const res = await cli(['mcp', 'approve', page.userCode!]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('Needs a yes');
    expect(res.stderr).toContain('--yes');
    expect((await submitConsent(d.url, { request: page.request!, action: 'approve' })).status).toBe(400);
  });

  it('fails for a code that no sign-in shows', async () => {
    const res = await cli(['mcp', 'approve', 'BCDF-GHJK', '--yes']);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/No such sign-in waiting for approval: 'BCDF-GHJK'/);
  });
});

describe('errand mcp clients and revoke', () => {
  it('lists grants, and revokes a client so that its tokens are refused at once', async () => {
    const t = await signIn(d.url, d.key);
    expect(await mcpStatus(t.access_token)).toBe(200);
    const table = await cli(['mcp', 'clients']);
    expect(table.stdout.split('\n')[0]).toMatch(/^CLIENT\s+NAME\s+GRANT\s+ORG\s+KEY\s+CREATED\s+LAST TOKEN\s+REVOKED$/);
    expect(table.stdout).toContain(t.client.client_id);

    const revoked = await cli(['mcp', 'revoke', t.client.client_id]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toContain(`revoked 1 grant of ${t.client.client_id}`);
    expect(await mcpStatus(t.access_token)).toBe(401);
    expect((await tokenRequest(d.url, { grant_type: 'refresh_token', client_id: t.client.client_id, refresh_token: t.refresh_token })).body.error).toBe('invalid_grant');

    const again = await cli(['mcp', 'revoke', t.client.client_id]);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('had no active grant');
    expect((await cli(['mcp', 'revoke', 'mcpc_unknown'])).code).toBe(1);
  });
});

describe('errand mcp config', () => {
  it('prints the snippets of every client for the daemon address, sending no key unless asked', async () => {
    const res = await cli(['mcp', 'config', '--json']);
    expect(res.code, res.stderr).toBe(0);
    const body = res.json();
    expect(body).toMatchObject({ url: `${d.url}/mcp`, auth: 'oauth' });
    expect(body.clients.map((c: { client: string }) => c.client)).toEqual(['claude-code', 'claude-desktop', 'cursor']);
    expect(body.clients[0].command).toBe(`claude mcp add --transport http errand ${d.url}/mcp`);
    expect(body.clients[2].json).toEqual({ mcpServers: { errand: { url: `${d.url}/mcp` } } });
    expect(res.stdout).not.toContain(d.key);

    const withKey = (await cli(['mcp', 'config', '--api-key', '--client', 'cursor', '--json'])).json();
    expect(withKey.clients).toEqual([expect.objectContaining({ client: 'cursor', json: { mcpServers: { errand: { url: `${d.url}/mcp`, headers: { Authorization: 'Bearer ${env:ERRAND_API_KEY}' } } } } })]);
  });

  it('prefers the configured public_url, which tokens are issued for', async () => {
    const res = await cli(['mcp', 'config', '--client', 'claude-code'], { ERRAND_PUBLIC_URL: 'https://errand.example.com' });
    expect(res.stdout).toContain('claude mcp add --transport http errand https://errand.example.com/mcp');
  });
});
