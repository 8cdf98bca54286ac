/**
 * The whole front door with a client nobody here wrote: the MCP SDK's own client and OAuth machinery, and a real
 * browser (headless Chromium) on the consent page.
 */
import { auth, UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolUse } from '../fixtures/scripted-anthropic.js';
import { runCli } from '../cli/run-cli.js';
import { servePages, startEngine, type EngineHarness } from '../engine/harness.js';
import { INITIALIZE, oauthClient, rpc, structured } from './harness.js';

/** An MCP client's OAuth state, kept in memory; the authorization URL is handed to the test's browser. */
class BrowserOAuthProvider implements OAuthClientProvider {
  authorizationUrl: URL | null = null;
  private info: OAuthClientInformationMixed | undefined;
  private saved: OAuthTokens | undefined;
  private verifier: string | undefined;

  constructor(readonly redirectUrl: string) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Errand e2e client',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  state(): string {
    return 'e2e-state';
  }

  clientInformation() {
    return this.info;
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.info = info;
  }

  tokens() {
    return this.saved;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }

  redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url;
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    return this.verifier!;
  }

  /** What the SDK asks a provider to forget when the server refuses it (a revoked grant: the tokens). */
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'tokens') this.saved = undefined;
    if (scope === 'all' || scope === 'client') this.info = undefined;
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
  }
}

let h: EngineHarness;
let browser: Browser;
let callback: { url: string; close(): Promise<void> };
const callbacks: URLSearchParams[] = [];

beforeAll(async () => {
  h = await startEngine();
  callback = await servePages((req, res) => {
    const url = new URL(req.url ?? '/', 'http://callback');
    // Browsers also ask for a favicon.
    if (url.pathname === '/callback') callbacks.push(url.searchParams);
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Signed in</title><p>You can close this window.</p>');
  });
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-gpu'],
  });
});

afterAll(async () => {
  await browser?.close();
  await callback?.close();
  await h?.close();
});

/** Opens the consent page in Chromium, lets `act` sign in there, and answers the query the browser brought back. */
async function consentInBrowser(url: URL, act: (page: import('playwright-core').Page) => Promise<void>): Promise<URLSearchParams> {
  const page = await browser.newPage();
  try {
    const before = callbacks.length;
    await page.goto(url.href);
    await act(page);
    await page.waitForURL(`${callback.url}/**`);
    expect(callbacks.length).toBe(before + 1);
    return callbacks.at(-1)!;
  } finally {
    await page.close();
  }
}

describe('an MCP client signing in with OAuth', () => {
  it('discovers, registers, signs in on the consent page, calls tools, refreshes, and is shut out once revoked', async () => {
    const provider = new BrowserOAuthProvider(`${callback.url}/callback`);

    // 1. The first connection is refused with 401; the SDK follows the challenge to the metadata and registers.
    const first = oauthClient(h.daemon.url, provider);
    await expect(first.client.connect(first.transport)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.clientInformation()).toMatchObject({ client_id: expect.stringMatching(/^mcpc_/) });
    const authorizationUrl = provider.authorizationUrl!;
    expect(`${authorizationUrl.origin}${authorizationUrl.pathname}`).toBe(`${h.daemon.url}/oauth/authorize`);
    expect(Object.fromEntries(authorizationUrl.searchParams)).toMatchObject({ code_challenge_method: 'S256', resource: `${h.daemon.url}/mcp`, state: 'e2e-state' });

    // 2. The user signs in on the consent page with an API key, and the browser brings the code back.
    const back = await consentInBrowser(authorizationUrl, async (page) => {
      const main = await page.locator('main').ariaSnapshot();
      expect(main).toContain('heading "Allow Errand e2e client to use Errand?"');
      expect(main).toMatch(/textbox "API key"/);
      expect(main).toContain('button "Allow"');
      await page.getByLabel('API key').fill(h.daemon.key);
      await page.getByRole('button', { name: 'Allow' }).click();
    });
    expect(back.get('state')).toBe('e2e-state');
    expect(back.get('iss')).toBe(h.daemon.url);

    // 3. The code is exchanged for tokens, and the client works.
    await first.transport.finishAuth(back.get('code')!);
    const tokens = provider.tokens()!;
    expect(tokens).toMatchObject({ token_type: 'Bearer', access_token: expect.stringMatching(/^ema_/), refresh_token: expect.stringMatching(/^emr_/) });
    const signedIn = oauthClient(h.daemon.url, provider);
    await signedIn.client.connect(signedIn.transport);
    expect((await signedIn.client.listTools()).tools.map((t) => t.name)).toContain('run_task');
    h.model.script([toolUse('finish', { result: { capital: 'Paris' }, confidence: 'high', matched_text: 'Paris' })]);
    const envelope = structured(
      await signedIn.client.callTool({
        name: 'run_task',
        arguments: { prompt: 'What is the capital of France?', output_schema: { type: 'object', required: ['capital'], properties: { capital: { type: 'string' } } } },
      }),
    );
    expect(envelope).toMatchObject({ status: 'succeeded', result: { capital: 'Paris' }, confidence: 'high' });
    // Billed to the key the user signed in with, like any run of that key.
    expect((await h.daemon.api('GET', `/v1/runs/${envelope.task_id}`)).body.status).toBe('succeeded');
    await signedIn.client.close();

    // 4. A refresh rotates both tokens; the old refresh token is spent.
    expect(await auth(provider, { serverUrl: `${h.daemon.url}/mcp` })).toBe('AUTHORIZED');
    const refreshed = provider.tokens()!;
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    const again = oauthClient(h.daemon.url, provider);
    await again.client.connect(again.transport);
    expect(structured(await again.client.callTool({ name: 'get_run', arguments: { task_id: envelope.task_id } }))).toMatchObject({ status: 'succeeded' });
    await again.client.close();

    // 5. Revoking the refresh token ends the grant: the access token is refused, and the client must sign in again.
    const revoked = await fetch(`${h.daemon.url}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: provider.clientInformation()!.client_id, token: refreshed.refresh_token! }).toString(),
    });
    expect(revoked.status).toBe(200);
    const refused = await rpc(h.daemon.url, refreshed.access_token, INITIALIZE);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
    provider.authorizationUrl = null;
    const shutOut = oauthClient(h.daemon.url, provider);
    await expect(shutOut.client.connect(shutOut.transport)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.authorizationUrl).not.toBeNull();

    // Nothing secret reached the daemon's log.
    for (const secret of [h.daemon.key, tokens.access_token, tokens.refresh_token!, refreshed.access_token, back.get('code')!]) {
      expect(h.daemon.logs()).not.toContain(secret);
    }
  });

  it('signs in with the one-time code approved by errand mcp approve, under the CLI key', async () => {
    const provider = new BrowserOAuthProvider(`${callback.url}/callback`);
    const first = oauthClient(h.daemon.url, provider);
    await expect(first.client.connect(first.transport)).rejects.toBeInstanceOf(UnauthorizedError);
    const back = await consentInBrowser(provider.authorizationUrl!, async (page) => {
      const code = (await page.locator('.user-code').textContent())!.replace('errand mcp approve ', '');
      await page.getByRole('button', { name: 'Allow' }).click();
      expect(await page.getByRole('alert').textContent()).toContain('Not approved yet');
      const approved = await runCli(['mcp', 'approve', code, '--yes', '--home', h.daemon.home]);
      expect(approved.code, approved.stderr).toBe(0);
      expect(approved.stdout).toContain('approved: Errand e2e client may act for');
      await page.getByRole('button', { name: 'Allow' }).click();
    });
    await first.transport.finishAuth(back.get('code')!);
    const signedIn = oauthClient(h.daemon.url, provider);
    await signedIn.client.connect(signedIn.transport);
    expect(structured(await signedIn.client.callTool({ name: 'list_projects', arguments: {} })).data[0]).toMatchObject({ object: 'project' });
    await signedIn.client.close();
  });
});
