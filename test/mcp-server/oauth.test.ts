import { OAuthMetadataSchema, OAuthProtectedResourceMetadataSchema } from '@modelcontextprotocol/sdk/shared/auth.js';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDataDirectory } from '../../src/admin-services.js';
import { hashSecret } from '../../src/keys/api-key.js';
import { dataPaths } from '../../src/runtime/paths.js';
import type { McpGrantInfo } from '../../src/mcp-server/oauth-server/grants-service.js';
import { startApiDaemon, withStore } from '../api/harness.js';
import type { TestDaemon } from '../fixtures/test-daemon.js';
import { connectWithKey, INITIALIZE, rpc } from './harness.js';
import {
  consentWithKey,
  openAuthorize,
  pkce,
  REDIRECT_URI,
  register,
  registerClient,
  revokeRequest,
  signIn,
  standardAuthorize,
  submitConsent,
  tokenRequest,
  type Registered,
} from './oauth-flow.js';

let d: TestDaemon;

beforeAll(async () => {
  d = await startApiDaemon({ ERRAND_MCP_ACCESS_TOKEN_TTL_S: '600' });
});

afterAll(async () => {
  await d?.cleanup();
});

/** OAuth clients nobody has signed in with, as the daemon's database holds them. */
function unusedClients(): number {
  return withStore(d, (store) => store.mcpOAuth.unusedClients());
}

function grantsOf(client: Registered): Promise<McpGrantInfo[]> {
  return withDataDirectory(d.home, {}, ({ mcpGrants }) => mcpGrants.list().filter((g) => g.client_id === client.client_id));
}

/** Whether `token` opens an MCP session (200) or is refused (401). */
async function mcpStatus(token: string): Promise<number> {
  const res = await rpc(d.url, token, INITIALIZE);
  await res.text();
  return res.status;
}

async function codeFor(client: Registered, challenge: string, key = d.key): Promise<string> {
  return (await consentWithKey(d.url, standardAuthorize(d.url, client, challenge), key)).code;
}

const redeem = (client: Registered, code: string, verifier: string, extra: Record<string, string> = {}) =>
  tokenRequest(d.url, { grant_type: 'authorization_code', client_id: client.client_id, code, redirect_uri: REDIRECT_URI, code_verifier: verifier, ...extra });

describe('discovery', () => {
  it('describes /mcp as a protected resource at the RFC 9728 address and at the root', async () => {
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const res = await d.api('GET', path, undefined, { key: null });
      expect(res.status, path).toBe(200);
      expect(OAuthProtectedResourceMetadataSchema.parse(res.body)).toMatchObject({ resource: `${d.url}/mcp`, authorization_servers: [d.url], bearer_methods_supported: ['header'] });
    }
  });

  it('describes its authorization server (RFC 8414): PKCE S256 only, code and refresh grants, registration and revocation', async () => {
    const res = await d.api('GET', '/.well-known/oauth-authorization-server', undefined, { key: null });
    expect(res.status).toBe(200);
    expect(OAuthMetadataSchema.parse(res.body)).toMatchObject({
      issuer: d.url,
      authorization_endpoint: `${d.url}/oauth/authorize`,
      token_endpoint: `${d.url}/oauth/token`,
      registration_endpoint: `${d.url}/oauth/register`,
      revocation_endpoint: `${d.url}/oauth/revoke`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
    });
  });
});

describe('POST /oauth/register', () => {
  it('registers a public client and answers its client_id with the metadata, without a secret', async () => {
    const res = await register(d.url, { client_name: 'Claude', scope: 'mcp' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ client_id: expect.stringMatching(/^mcpc_/), client_name: 'Claude', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' });
    expect(res.body.client_secret).toBeUndefined();
  });

  it.each([
    ['http to another host', 'http://example.com/cb', 'invalid_redirect_uri'],
    ['a fragment', 'https://example.com/cb#x', 'invalid_redirect_uri'],
    ['javascript:', 'javascript:alert(1)', 'invalid_redirect_uri'],
    ['view-source:', 'view-source:https://example.com/cb', 'invalid_redirect_uri'],
    ['filesystem:', 'filesystem:https://example.com/temporary/cb', 'invalid_redirect_uri'],
    ['no URI at all', 'not a uri', 'invalid_redirect_uri'],
  ])('refuses a redirect URI with %s', async (_what, uri, error) => {
    const res = await register(d.url, { redirect_uris: [uri] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error, error_description: expect.any(String) });
  });

  it.each([
    ['logo_uri', { logo_uri: `https://example.com/${'x'.repeat(2000)}` }],
    ['client_uri', { client_uri: `https://example.com/${'x'.repeat(2000)}` }],
    ['scope', { scope: 's'.repeat(1001) }],
    ['contacts', { contacts: [`${'c'.repeat(320)}@example.com`] }],
    ['client_name', { client_name: 'n'.repeat(201) }],
    ['jwks', { jwks: { keys: [{ n: 'k'.repeat(4000) }] } }],
  ])('refuses a %s over its bound with invalid_client_metadata naming it, storing nothing', async (member, metadata) => {
    const before = unusedClients();
    const res = await register(d.url, metadata);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'invalid_client_metadata', error_description: expect.stringContaining(member) });
    expect(unusedClients()).toBe(before);
  });

  it('refuses a body over 16 KiB with 413 in RFC 6749\'s error shape, storing nothing', async () => {
    const before = unusedClients();
    const res = await register(d.url, { logo_uri: `https://example.com/${'x'.repeat(950 * 1024)}` });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: 'invalid_request', error_description: 'The request body is larger than 16 KiB' });
    expect(unusedClients()).toBe(before);
  });

  it('refuses grant types it does not support', async () => {
    const res = await register(d.url, { grant_types: ['client_credentials'] });
    expect(res).toMatchObject({ status: 400, body: { error: 'invalid_client_metadata' } });
  });

  it('gives a confidential client a secret, shown once, which the token endpoint then requires', async () => {
    const client = await registerClient(d.url, { token_endpoint_auth_method: 'client_secret_basic' });
    expect(client.client_secret).toMatch(/^ems_/);
    const { verifier, challenge } = pkce();
    const code = await codeFor(client, challenge);
    const basic = (secret: string) => ({ authorization: `Basic ${Buffer.from(`${client.client_id}:${secret}`).toString('base64')}` });
    const params = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier };
    const wrong = await tokenRequest(d.url, params, basic('ems_wrong'));
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('invalid_client');
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic/);
    const right = await tokenRequest(d.url, params, basic(client.client_secret!));
    expect(right.status).toBe(200);
  });
});

describe('GET /oauth/authorize', () => {
  it('shows the consent page, with the client name escaped and the page unframeable', async () => {
    const client = await registerClient(d.url, { client_name: '<b>Sneaky</b>' });
    const page = await openAuthorize(standardAuthorize(d.url, client, pkce().challenge));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.html).toContain('&#60;b&#62;Sneaky&#60;/b&#62;');
    expect(page.html).not.toContain('<b>Sneaky');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.request).toMatch(/^emh_/);
    expect(page.userCode).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
    expect(page.html).toMatch(/<label for="api_key">/);
  });

  it('lists everything the grant lets the client do, one line for each tool tools/list offers, grouped', async () => {
    const client = await registerClient(d.url);
    const page = await openAuthorize(standardAuthorize(d.url, client, pkce().challenge));
    const mcp = await connectWithKey(d.url, d.key);
    const offered = (await mcp.listTools()).tools.map((t) => t.name);
    await mcp.close();
    const listed = [...page.html.matchAll(/<li data-tool="([a-z_]+)">[^<]+<\/li>/g)].map((m) => m[1]);
    expect(listed.sort()).toEqual([...offered].sort());
    // Mail that cannot be recalled and accounts connected are said in so many words, each under its own heading.
    const headings = [...page.html.matchAll(/<h2 class="group-(\w+)">([^<]+)<\/h2>/g)].map((m) => [m[1], m[2]]);
    expect(headings.map(([group]) => group)).toEqual(['act', 'send_mail', 'connect', 'read']);
    expect(headings[1]![1]).toMatch(/cannot be recalled/);
    const sendMail = page.html.slice(page.html.indexOf('group-send_mail'), page.html.indexOf('group-connect'));
    expect(sendMail).toContain('data-tool="send_email"');
    const connect = page.html.slice(page.html.indexOf('group-connect'), page.html.indexOf('group-read'));
    expect(connect).toContain('data-tool="connect_link"');
  });

  it('shows an error page, and sends nothing to the client, for a redirect URI that differs by one character', async () => {
    const client = await registerClient(d.url);
    const page = await openAuthorize(standardAuthorize(d.url, client, pkce().challenge, { redirect_uri: `${REDIRECT_URI}s` }));
    expect(page.status).toBe(400);
    expect(page.location).toBeNull();
    expect(page.request).toBeNull();
    expect(page.html).toContain('Invalid redirect URI');
    expect(await grantsOf(client)).toEqual([]);
  });

  it('shows an error page for an unknown client', async () => {
    const page = await openAuthorize(standardAuthorize(d.url, { client_id: 'mcpc_nope' }, pkce().challenge));
    expect(page).toMatchObject({ status: 400, location: null, request: null });
  });

  it.each([
    ['no code_challenge', { code_challenge: undefined }, 'invalid_request'],
    ['the plain PKCE method', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['response_type token', { response_type: 'token' }, 'unsupported_response_type'],
    ['a resource of another server', { resource: 'http://127.0.0.1:9/mcp' }, 'invalid_target'],
  ])('sends the browser back with an error for %s', async (_what, overrides, error) => {
    const client = await registerClient(d.url);
    const page = await openAuthorize(standardAuthorize(d.url, client, pkce().challenge, overrides));
    expect(page.status).toBe(303);
    const back = new URL(page.location!);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
    expect(back.searchParams.get('error')).toBe(error);
    expect(back.searchParams.get('state')).toBe('st-123');
    expect(back.searchParams.get('code')).toBeNull();
  });
});

describe('GET /oauth/authorize, bounded (issue 21)', () => {
  it('sends the browser back with invalid_request for a state over 1024 characters, and stores no sign-in', async () => {
    const client = await registerClient(d.url);
    const page = await openAuthorize(standardAuthorize(d.url, client, pkce().challenge, { state: 's'.repeat(15 * 1024) }));
    expect(page.status).toBe(303);
    const back = new URL(page.location!);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('error_description')).toContain('state');
    expect(withStore(d, (store) => store.mcpOAuth.consentsOfClient(client.client_id))).toBe(0);
    expect((await openAuthorize(standardAuthorize(d.url, client, pkce().challenge, { state: 's'.repeat(1024) }))).status).toBe(200);
  });

  it('keeps at most 10 sign-ins of one client under way: one more ends the oldest', async () => {
    const client = await registerClient(d.url);
    const pages = [];
    for (let i = 0; i < 11; i++) pages.push(await openAuthorize(standardAuthorize(d.url, client, pkce().challenge)));
    expect(pages.every((p) => p.status === 200 && p.request !== null)).toBe(true);
    expect(withStore(d, (store) => store.mcpOAuth.consentsOfClient(client.client_id))).toBe(10);
    const oldest = await submitConsent(d.url, { request: pages[0]!.request!, action: 'approve', api_key: d.key });
    expect(oldest.status).toBe(400);
    expect(oldest.html).toContain('This sign-in has expired');
    const newest = await submitConsent(d.url, { request: pages[10]!.request!, action: 'approve', api_key: d.key });
    expect(newest.status).toBe(303);
  });
});

describe('the consent page', () => {
  it('sends the browser back with access_denied when the user denies', async () => {
    const client = await registerClient(d.url);
    const page = await openAuthorize(standardAuthorize(d.url, client, pkce().challenge));
    const answer = await submitConsent(d.url, { request: page.request!, action: 'deny' });
    expect(answer.status).toBe(303);
    expect(Object.fromEntries(new URL(answer.location!).searchParams)).toMatchObject({ error: 'access_denied', state: 'st-123', iss: d.url });
    expect(await grantsOf(client)).toEqual([]);
    expect((await submitConsent(d.url, { request: page.request!, action: 'approve', api_key: d.key })).status).toBe(400);
  });

  it('shows the page again for a key that is not valid, then allows with a good one', async () => {
    const client = await registerClient(d.url);
    const page = await openAuthorize(standardAuthorize(d.url, client, pkce().challenge));
    const refused = await submitConsent(d.url, { request: page.request!, action: 'approve', api_key: `${d.key}x` });
    expect(refused.status).toBe(401);
    expect(refused.html).toContain('role="alert"');
    expect(refused.html).toContain('not valid');
    expect(refused.request).toBe(page.request);
    const allowed = await submitConsent(d.url, { request: page.request!, action: 'approve', api_key: d.key });
    expect(allowed.status).toBe(303);
    const back = new URL(allowed.location!);
    expect(back.searchParams.get('code')).toMatch(/^emc_/);
    expect(back.searchParams.get('state')).toBe('st-123');
    expect(back.searchParams.get('iss')).toBe(d.url);
    expect(await grantsOf(client)).toMatchObject([{ org_id: d.orgId, revoked_at: null }]);
  });

  it('grants once for a form sent twice', async () => {
    const client = await registerClient(d.url);
    const page = await openAuthorize(standardAuthorize(d.url, client, pkce().challenge));
    const answers = await Promise.all([1, 2].map(() => submitConsent(d.url, { request: page.request!, action: 'approve', api_key: d.key })));
    expect(answers.map((a) => a.status).sort()).toEqual([303, 400]);
    expect(await grantsOf(client)).toHaveLength(1);
  });

  it('allows after the one-time code is approved on the data directory, under the approving key', async () => {
    const client = await registerClient(d.url);
    const page = await openAuthorize(standardAuthorize(d.url, client, pkce().challenge));
    const early = await submitConsent(d.url, { request: page.request!, action: 'approve' });
    expect(early.status).toBe(400);
    expect(early.html).toContain(`errand mcp approve ${page.userCode}`);
    const other = d.createOrgWithKey(`consent-code-${Date.now()}`);
    const approved = await withDataDirectory(d.home, {}, ({ mcpGrants }) => mcpGrants.approve(page.userCode!.toLowerCase().replace('-', ' '), other.keyId));
    expect(approved).toMatchObject({ client_id: client.client_id, client_name: 'Test client', redirect_uri: REDIRECT_URI, org_id: other.orgId });
    const allowed = await submitConsent(d.url, { request: page.request!, action: 'approve' });
    expect(allowed.status).toBe(303);
    expect(new URL(allowed.location!).searchParams.get('code')).toMatch(/^emc_/);
    expect(await grantsOf(client)).toMatchObject([{ org_id: other.orgId, key_id: other.keyId }]);
  });
});

describe('POST /oauth/token', () => {
  it('exchanges a code for an access token that opens /mcp and a refresh token, uncached', async () => {
    const client = await registerClient(d.url);
    const { verifier, challenge } = pkce();
    const res = await redeem(client, await codeFor(client, challenge), verifier, { resource: `${d.url}/mcp` });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toEqual({ access_token: expect.stringMatching(/^ema_/), token_type: 'Bearer', expires_in: 600, refresh_token: expect.stringMatching(/^emr_/), scope: 'mcp' });
    expect(await mcpStatus(res.body.access_token)).toBe(200);
  });

  it('refuses a wrong code_verifier, and the code is then worth nothing: nothing is granted', async () => {
    const client = await registerClient(d.url);
    const { verifier, challenge } = pkce();
    const code = await codeFor(client, challenge);
    const wrong = await redeem(client, code, pkce().verifier);
    expect(wrong).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await redeem(client, code, verifier)).body.error).toBe('invalid_grant');
    expect(await grantsOf(client)).toMatchObject([{ revoked_at: expect.any(String) }]);
  });

  it('refuses a code used twice, and revokes the tokens the first use bought', async () => {
    const client = await registerClient(d.url);
    const { verifier, challenge } = pkce();
    const code = await codeFor(client, challenge);
    const first = await redeem(client, code, verifier);
    expect(first.status).toBe(200);
    const second = await redeem(client, code, verifier);
    expect(second).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await mcpStatus(first.body.access_token)).toBe(401);
    expect((await tokenRequest(d.url, { grant_type: 'refresh_token', client_id: client.client_id, refresh_token: first.body.refresh_token })).status).toBe(400);
  });

  it('refuses a redirect_uri that differs from the authorization request by one character', async () => {
    const client = await registerClient(d.url, { redirect_uris: [REDIRECT_URI, `${REDIRECT_URI}2`] });
    const { verifier, challenge } = pkce();
    const res = await redeem(client, await codeFor(client, challenge), verifier, { redirect_uri: `${REDIRECT_URI}2` });
    expect(res).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await grantsOf(client)).toMatchObject([{ revoked_at: expect.any(String) }]);
  });

  it('refuses a token for another resource, granting nothing', async () => {
    const client = await registerClient(d.url);
    const { verifier, challenge } = pkce();
    const res = await redeem(client, await codeFor(client, challenge), verifier, { resource: 'http://127.0.0.1:9/mcp' });
    expect(res).toMatchObject({ status: 400, body: { error: 'invalid_target' } });
    expect(await grantsOf(client)).toMatchObject([{ revoked_at: expect.any(String) }]);
  });

  it('refuses a code redeemed without code_verifier, and the code is then worth nothing: nothing is granted', async () => {
    const client = await registerClient(d.url);
    const { verifier, challenge } = pkce();
    const code = await codeFor(client, challenge);
    const missing = await tokenRequest(d.url, { grant_type: 'authorization_code', client_id: client.client_id, code, redirect_uri: REDIRECT_URI });
    expect(missing).toMatchObject({ status: 400, body: { error: 'invalid_request', error_description: expect.stringContaining('code_verifier') } });
    expect((await redeem(client, code, verifier)).body.error).toBe('invalid_grant');
    expect(await grantsOf(client)).toMatchObject([{ revoked_at: expect.any(String) }]);
  });

  it("refuses another client's code", async () => {
    const client = await registerClient(d.url);
    const thief = await registerClient(d.url);
    const { verifier, challenge } = pkce();
    const code = await codeFor(client, challenge);
    expect((await redeem(thief, code, verifier)).body.error).toBe('invalid_grant');
  });

  it('rotates refresh tokens, and revokes the grant when a rotated one is presented again', async () => {
    const t = await signIn(d.url, d.key);
    const refresh = (token: string) => tokenRequest(d.url, { grant_type: 'refresh_token', client_id: t.client.client_id, refresh_token: token });
    const next = await refresh(t.refresh_token);
    expect(next.status).toBe(200);
    expect(next.body.refresh_token).not.toBe(t.refresh_token);
    expect(await mcpStatus(next.body.access_token)).toBe(200);
    const replayed = await refresh(t.refresh_token);
    expect(replayed).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await mcpStatus(next.body.access_token)).toBe(401);
    expect((await refresh(next.body.refresh_token)).status).toBe(400);
    expect(await grantsOf(t.client)).toMatchObject([{ revoked_at: expect.any(String), revoked_why: expect.stringContaining('used already') }]);
  });

  it('refuses a refresh for another resource with invalid_target, without using up the refresh token', async () => {
    const t = await signIn(d.url, d.key);
    const refresh = (extra: Record<string, string> = {}) => tokenRequest(d.url, { grant_type: 'refresh_token', client_id: t.client.client_id, refresh_token: t.refresh_token, ...extra });
    const wrong = await refresh({ resource: 'http://127.0.0.1:9/mcp' });
    expect(wrong).toMatchObject({ status: 400, body: { error: 'invalid_target' } });
    const right = await refresh({ resource: `${d.url}/mcp` });
    expect(right.status).toBe(200);
    expect(await mcpStatus(right.body.access_token)).toBe(200);
  });

  it('stores no code, token, handle or client secret, only their hashes', async () => {
    const client = await registerClient(d.url, { token_endpoint_auth_method: 'client_secret_post' });
    const { verifier, challenge } = pkce();
    const page = await openAuthorize(standardAuthorize(d.url, client, challenge));
    const code = new URL((await submitConsent(d.url, { request: page.request!, action: 'approve', api_key: d.key })).location!).searchParams.get('code')!;
    const tokens = (await redeem(client, code, verifier, { client_secret: client.client_secret! })).body;
    const db = new Database(dataPaths(d.home).database, { readonly: true });
    try {
      const tables = db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'mcp_%'").all();
      const everything = tables.flatMap(({ name }) => db.prepare(`SELECT * FROM ${name}`).all()).map((row) => JSON.stringify(row, (_k, v) => (Buffer.isBuffer(v) ? v.toString('latin1') : v))).join('\n');
      for (const secret of [client.client_secret!, page.request!, page.userCode!, code, tokens.access_token, tokens.refresh_token]) {
        expect(everything).not.toContain(secret);
        expect(everything).not.toContain(secret.slice(4));
      }
      expect(everything).toContain(client.client_id);
    } finally {
      db.close();
    }
  });

  it('refuses repeated parameters and unsupported grant types', async () => {
    const client = await registerClient(d.url);
    const body = `grant_type=authorization_code&grant_type=refresh_token&client_id=${client.client_id}`;
    const res = await fetch(`${d.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
    expect(await res.json()).toMatchObject({ error: 'invalid_request' });
    const unsupported = await tokenRequest(d.url, { grant_type: 'password', client_id: client.client_id });
    expect(unsupported).toMatchObject({ status: 400, body: { error: 'unsupported_grant_type' } });
  });
});

describe('POST /oauth/revoke', () => {
  it('revokes an access token alone, and a refresh token with its whole grant', async () => {
    const t = await signIn(d.url, d.key);
    expect(await revokeRequest(d.url, { client_id: t.client.client_id, token: t.access_token })).toBe(200);
    expect(await mcpStatus(t.access_token)).toBe(401);
    const next = await tokenRequest(d.url, { grant_type: 'refresh_token', client_id: t.client.client_id, refresh_token: t.refresh_token });
    expect(await mcpStatus(next.body.access_token)).toBe(200);
    expect(await revokeRequest(d.url, { client_id: t.client.client_id, token: next.body.refresh_token })).toBe(200);
    expect(await mcpStatus(next.body.access_token)).toBe(401);
    expect(await revokeRequest(d.url, { client_id: t.client.client_id, token: 'ema_unknown' })).toBe(200);
  });
});

describe('a token of another organisation', () => {
  it('sees only its own organisation: another organisation\'s run is not found', async () => {
    const run = await d.api('POST', '/v1/runs', { prompt: 'Org A only' });
    const other = d.createOrgWithKey(`oauth-tenant-${Date.now()}`);
    const t = await signIn(d.url, other.key);
    const init = await rpc(d.url, t.access_token, INITIALIZE);
    const session = { 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' };
    await init.text();
    const call = await rpc(d.url, t.access_token, { id: 2, method: 'tools/call', params: { name: 'get_run', arguments: { task_id: run.body.task_id } } }, session);
    const text = await call.text();
    expect(text).toContain('"isError":true');
    expect(text).toContain('resource_missing');
    // Nor can it use a session of the first organisation.
    const theirs = await rpc(d.url, d.key, INITIALIZE);
    const theirSession = theirs.headers.get('mcp-session-id')!;
    await theirs.text();
    const hijack = await rpc(d.url, t.access_token, { id: 3, method: 'tools/list' }, { 'mcp-session-id': theirSession, 'mcp-protocol-version': '2025-11-25' });
    expect(hijack.status).toBe(404);
  });
});

describe('a grant whose API key is revoked', () => {
  it('has its tokens refused: the grant acts under the key', async () => {
    const other = d.createOrgWithKey(`oauth-key-revoked-${Date.now()}`);
    const t = await signIn(d.url, other.key);
    expect(await mcpStatus(t.access_token)).toBe(200);
    await withDataDirectory(d.home, {}, ({ keys }) => keys.revoke(other.keyId));
    const res = await rpc(d.url, t.access_token, INITIALIZE);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('The API key this grant acts under has been revoked');
  });
});

describe('after a restart under another address, with short-lived access tokens', () => {
  it('refuses a token issued for the old address: another resource', async () => {
    const t = await signIn(d.url, d.key);
    expect(await mcpStatus(t.access_token)).toBe(200);
    // A new port, and with it a new resource: the token was issued for the old one.
    await d.restart({ env: { ERRAND_MCP_ACCESS_TOKEN_TTL_S: '2' } });
    const res = await rpc(d.url, t.access_token, INITIALIZE);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('issued for another resource');
  });

  it('refuses an expired access token with invalid_token; a refresh gives a working one', async () => {
    const t = await signIn(d.url, d.key);
    expect(t.expires_in).toBe(2);
    expect(await mcpStatus(t.access_token)).toBe(200);
    // Its 2 s pass without waiting for them: the token's row is moved back by its lifetime, as a clock moved on by
    // 2 s would find it (the daemon's clock is its own process's).
    withStore(d, (store) => {
      const hash = hashSecret(t.access_token);
      const row = store.db.prepare('SELECT created_at, expires_at FROM mcp_tokens WHERE token_hash = ?').get(hash) as { created_at: number; expires_at: number };
      expect(row.expires_at - row.created_at).toBe(2_000);
      store.db.prepare('UPDATE mcp_tokens SET created_at = created_at - 2000, expires_at = expires_at - 2000 WHERE token_hash = ?').run(hash);
    });
    const expired = await rpc(d.url, t.access_token, INITIALIZE);
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token", error_description="The access token has expired/);
    const next = await tokenRequest(d.url, { grant_type: 'refresh_token', client_id: t.client.client_id, refresh_token: t.refresh_token });
    expect(await mcpStatus(next.body.access_token)).toBe(200);
  });
});
