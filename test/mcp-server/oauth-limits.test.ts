import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiDaemon } from '../api/harness.js';
import type { TestDaemon } from '../fixtures/test-daemon.js';
import { INITIALIZE, rpc } from './harness.js';
import { openAuthorize, pkce, register, registerClient, signIn, standardAuthorize } from './oauth-flow.js';

let d: TestDaemon;

beforeAll(async () => {
  d = await startApiDaemon({ ERRAND_MCP_REGISTRATIONS_PER_HOUR: '4', ERRAND_MCP_MAX_UNUSED_CLIENTS: '2' });
});

afterAll(async () => {
  await d?.cleanup();
});

/** Whether the client is still registered: its sign-in link shows the consent page, not "Unknown client". */
async function registered(client: { client_id: string }): Promise<boolean> {
  const page = await openAuthorize(standardAuthorize(d.url, client, pkce().challenge));
  return page.status === 200;
}

describe('POST /oauth/register, bounded (issue 21)', () => {
  it('keeps mcp.max_unused_clients clients nobody signed in with, dropping the oldest, then refuses more than mcp.registrations_per_hour from one address with 429', async () => {
    const signedIn = await signIn(d.url, d.key);
    const oldest = await registerClient(d.url);
    const middle = await registerClient(d.url);
    const newest = await registerClient(d.url);

    expect(await registered(oldest)).toBe(false);
    expect([await registered(middle), await registered(newest)]).toEqual([true, true]);
    const session = await rpc(d.url, signedIn.access_token, INITIALIZE);
    await session.text();
    expect(session.status).toBe(200);

    const refused = await fetch(`${d.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: ['http://127.0.0.1:1/callback'], token_endpoint_auth_method: 'none' }),
    });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(60);
    expect(refused.headers.get('cache-control')).toBe('no-store');
    expect(await refused.json()).toEqual({ error: 'temporarily_unavailable', error_description: expect.stringContaining('mcp.registrations_per_hour') });
    expect((await register(d.url)).status).toBe(429);
  });
});
