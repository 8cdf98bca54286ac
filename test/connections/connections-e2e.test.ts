/**
 * Connections end to end, on one daemon with real peers on loopback: token connections injected into the sandbox,
 * server-everything over streamable HTTP and SSE behind a bearer-checking proxy, a login form typed into by
 * reference, TOTP codes typed by reference into a site that checks them with otplib, hosted connect against
 * oauth2-mock-server driven by headless Chromium, and runs whose browser and code leave through a real proxy that
 * requires Basic authentication (issue 23, item 4). It ends by scanning every response body, every webhook, the
 * daemon's log, the SQLite database and WAL files, every model request and the proxied runs' traces for every secret
 * the suite used, the TOTP seeds in every form they were given in and the codes that were typed, and finding none.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { verify as verifyTotp } from 'otplib';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '../../src/runtime/paths.js';
import { runCli } from '../cli/run-cli.js';
import { closedPort, createRun, sandboxDirsOf, servePages, startEngine, until, waitForRun, type EngineHarness } from '../engine/harness.js';
import { startEverything, type EverythingFixture } from '../fixtures/mcp-everything.js';
import { startOAuthProvider, type OAuthProviderFixture } from '../fixtures/oauth-provider.js';
import { zipEntries } from '../fixtures/recording-files.js';
import { toolResults, toolUse, type AnthropicRequest } from '../fixtures/scripted-anthropic.js';
import type { ApiResponse } from '../fixtures/test-daemon.js';
import { signingSecretOf, WebhookReceiver } from '../fixtures/webhook-receiver.js';
import { startAuthProxy, type AuthProxy } from '../fixtures/auth-proxy.js';

const TOKEN = 'svc_7Qm2xL9pR4tW8zK1';
const MCP_TOKEN = 'mcp_tok_Hk38sLq0Zp2V';
const PASSWORD = 'Shop-pw_93kQz!x7';
const CLIENT_SECRET = 'oauth-client-secret-Zu61Wd';
/** The password of the proxy runs leave through; the sandbox's forwarder answers its challenge. */
const PROXY_PASSWORD = 'Prx-pw_5tY8uQ2z!';
/** A token with the characters URLs encode. */
const SPECIAL_TOKEN = 'tok/en+with=spe&cial:chars!';
/** TOTP seeds (23 and 32 bytes of key): one given as base32 in groups, as apps show it, one in an otpauth URI. */
const BANK_SEED = 'KRUGS4ZANFZSAYLOEBSXQYLNOBWGKIDTMVSWI===';
const BANK_SEED_GIVEN = 'krug s4za nfzs aylo ebsx qyln obwg kidt mvsw i';
const VAULT_SEED = 'MFWG63DJMNSSA5DSMFSGK4ZAMNXWIZLTEBTG64RAMEQHMYLVNR2A';
const VAULT_URI = `otpauth://totp/Vault:alice%40example.com?secret=${VAULT_SEED}&issuer=Vault&algorithm=SHA256&digits=8&period=60`;
/** The TOTP seeds as the site checks them (otplib, independently of the supervisor's otpauth). */
const TOTP_ACCOUNTS = {
  bank: { secret: BANK_SEED.replace(/=+$/, ''), algorithm: 'sha1', digits: 6, period: 30 },
  vault: { secret: VAULT_SEED, algorithm: 'sha256', digits: 8, period: 60 },
} as const;

/** Every secret the suite gives the daemon (the provider's tokens are added as it issues them). */
const SECRETS = [TOKEN, MCP_TOKEN, PASSWORD, CLIENT_SECRET, SPECIAL_TOKEN, PROXY_PASSWORD, 'unnamed_secret_value_1', 'org_wide_value_123', 'project_value_456', 'rotated-by-the-server'];

/**
 * What task code that prints a secret encoded shows, worked out here independently of the mask: base64 and base64url
 * with and without padding, hex in both cases, the URL encodings, the reversed value, and a stretch of the base64 of
 * text that holds the secret at each of the three offsets it can take in a 3-byte group.
 */
function encodedForms(secret: string): string[] {
  const bytes = Buffer.from(secret);
  const embedded = [0, 1, 2].map((offset) => Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64').slice(4, -4));
  return [
    bytes.toString('base64'),
    bytes.toString('base64').replace(/=+$/, ''),
    bytes.toString('base64url'),
    bytes.toString('hex'),
    bytes.toString('hex').toUpperCase(),
    encodeURIComponent(secret),
    encodeURIComponent(secret).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`),
    new URLSearchParams({ k: secret }).toString().slice(2),
    [...secret].reverse().join(''),
    ...embedded,
    ...embedded.map((form) => form.replace(/\+/g, '-').replace(/\//g, '_')),
  ];
}

let h: EngineHarness;
let mcp: EverythingFixture;
let provider: OAuthProviderFixture;
let receiver: WebhookReceiver;
let browser: Browser;
let site: Awaited<ReturnType<typeof servePages>>;
let proxy: AuthProxy;
/** The proxied runs' traces, unzipped: scanned for secrets with the rest. */
const traces: Buffer[] = [];
/** Every response body the daemon sent the suite, through the API or to the browser. */
const bodies: string[] = [];
const logins: { user: string; password: string }[] = [];
/** Every code the TOTP site was sent, and whether otplib found it valid for that account now. */
const totpLogins: { account: string; code: string; valid: boolean }[] = [];

const totpPage = (account: string) => `<!doctype html><html><head><title>${account} verification</title></head><body>
<form method="post" action="/2fa?account=${account}"><label>Authenticator code <input id="code" name="code" inputmode="numeric" autocomplete="one-time-code"></label>
<button>Verify</button></form></body></html>`;

const LOGIN = `<!doctype html><html><head><title>Shop login</title></head><body>
<form method="post" action="/login"><label>User <input id="user" name="user"></label>
<label>Password <input id="password" name="password" type="password"></label><button>Log in</button></form></body></html>`;

beforeAll(async () => {
  mcp = await startEverything({ token: MCP_TOKEN });
  provider = await startOAuthProvider();
  site = await servePages((req, res) => {
    if (req.method === 'POST' && req.url === '/login') {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        logins.push({ user: form.get('user') ?? '', password: form.get('password') ?? '' });
        // A careless site that shows the password back: the page text the model reads must still not hold it.
        res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body><h1>Welcome, ${form.get('user')}</h1><p>Your password is ${form.get('password')}</p></body></html>`);
      });
      return;
    }
    if (req.url?.startsWith('/2fa')) {
      const account = new URL(req.url, site.url).searchParams.get('account') as keyof typeof TOTP_ACCOUNTS;
      if (req.method !== 'POST') return void res.writeHead(200, { 'content-type': 'text/html' }).end(totpPage(account));
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        void (async () => {
          const code = new URLSearchParams(body).get('code') ?? '';
          // A site accepts the code of the current period, and of one that ended at most 5 s ago (a slow submit).
          const check = await verifyTotp({ ...TOTP_ACCOUNTS[account], token: code, epochTolerance: [5, 0] }).catch(() => ({ valid: false }));
          totpLogins.push({ account, code, valid: check.valid });
          // A careless site that shows the code back: the page text the model reads must still not hold it.
          res.writeHead(200, { 'content-type': 'text/html' }).end(check.valid ? `<html><head><title>Signed in</title></head><body><h1>Signed in to ${account}</h1><p>Code ${code} accepted</p></body></html>` : '<html><body><h1>Wrong code</h1></body></html>');
        })();
      });
      return;
    }
    if (req.url === '/via-proxy') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html><head><title>Proxied</title></head><body><h1>Seen through the proxy</h1></body></html>');
    if (req.url === '/code-via-proxy') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('code came through');
    if (req.url?.startsWith('/back')) return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><h1>Back in the app</h1></body></html>');
    res.writeHead(200, { 'content-type': 'text/html' }).end(LOGIN);
  });
  h = await startEngine({
    env: {
      ERRAND_CONNECTIONS_MCP_CONNECT_TIMEOUT_S: '3',
      ERRAND_CONNECTIONS_MCP_CALL_TIMEOUT_S: '2',
      ERRAND_OAUTH_PROVIDERS: JSON.stringify({ acme: provider.config(CLIENT_SECRET) }),
    },
  });
  const api = h.daemon.api.bind(h.daemon);
  h.daemon.api = async (method, path, body, options) => {
    const res = await api(method, path, body, options);
    bodies.push(typeof res.body === 'string' ? res.body : JSON.stringify(res.body));
    return res;
  };
  receiver = await WebhookReceiver.start([]);
  proxy = await startAuthProxy({ username: 'runner', password: PROXY_PASSWORD });
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-gpu'],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await h?.close();
  await receiver?.close();
  await site?.close();
  await proxy?.close();
  await provider?.close();
  await mcp?.close();
});

type Api = (method: string, path: string, body?: unknown) => Promise<ApiResponse>;

/** A fresh organisation: every enabled connection applies to every run of its organisation, so scenarios keep apart. */
function org(name: string): { key: string; orgId: string; api: Api; run: (body: Record<string, unknown>) => Promise<any> } {
  const { key, orgId } = h.daemon.createOrgWithKey(name);
  return {
    key,
    orgId,
    api: (method, path, body) => h.daemon.api(method, path, body, { key }),
    run: async (body) => waitForRun(h.daemon, await createRun(h.daemon, body, key), undefined, undefined, key),
  };
}

async function created(api: Api, body: Record<string, unknown>): Promise<any> {
  const res = await api('POST', '/v1/connections', body);
  if (res.status !== 201) throw new Error(`POST /v1/connections answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

const sha = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 16);
const toolNames = (request: AnthropicRequest): string[] => (request.body.tools ?? []).map((t) => t.name);
const hashEnv = (variable: string) => toolUse('run_code', { language: 'python', code: `import os, hashlib\nprint('sha:', hashlib.sha256(os.environ.get('${variable}', 'unset').encode()).hexdigest()[:16])` });
const finishWithHash = (request: AnthropicRequest) => toolUse('finish', { result: { sha: /sha: (\w+)/.exec(toolResults(request)[0]!.text)?.[1] }, confidence: 'high' });

describe('token connections', () => {
  it('are injected into the sandbox as env_var_name, and the model reads [secret:<name>] instead of the value', async () => {
    const o = org('tokens');
    await created(o.api, { name: 'svc', type: 'token', secret: TOKEN, env_var_name: 'SVC_TOKEN' });
    const start = h.model.requests.length;
    h.model.script([
      toolUse('run_code', { language: 'python', code: "import os, hashlib\nt = os.environ['SVC_TOKEN']\nprint('token:', t)\nprint('sha:', hashlib.sha256(t.encode()).hexdigest()[:16])" }),
      (request: AnthropicRequest) => {
        const out = toolResults(request)[0]!.text;
        return toolUse('finish', { result: { sha: /sha: (\w+)/.exec(out)?.[1], shown: /token: (.*)/.exec(out)?.[1] }, confidence: 'high' });
      },
    ]);
    const run = await o.run({ prompt: 'Print the service token', connections: ['svc'] });
    // The code saw the real token (its hash matches); the model saw only the mask.
    expect(run).toMatchObject({ status: 'succeeded', result: { sha: sha(TOKEN), shown: '[secret:svc]' } });
    expect(h.model.requests.length - start).toBe(2);
    const steps = (await o.api('GET', `/v1/runs/${run.task_id}/steps`)).body.data;
    expect(steps.find((s: { name: string }) => s.name === 'run_code.python').output).toContain('token: [secret:svc]');
  });

  it('are masked in the forms code prints them in: base64, hex, URL-encoded, reversed, inside longer base64, astride a cut (issue 21, item 7)', async () => {
    const o = org('tokens-encoded');
    await created(o.api, { name: 'enc', type: 'token', secret: TOKEN, env_var_name: 'ENC_TOKEN' });
    await created(o.api, { name: 'special', type: 'token', secret: SPECIAL_TOKEN, env_var_name: 'ENC_SPECIAL' });
    const code = [
      'import os, sys, base64, urllib.parse',
      "t = os.environ['ENC_TOKEN']; s = os.environ['ENC_SPECIAL']; b = t.encode()",
      // Astride where the code tool cuts long output (5 000 characters in), and far longer than what is kept.
      "sys.stdout.write('x' * 4995 + t + 'y' * 25000 + '\\n')",
      "print('b64:', base64.b64encode(b).decode())",
      "print('b64url:', base64.urlsafe_b64encode(b).decode().rstrip('='))",
      "print('hex:', b.hex().upper())",
      "print('rev:', t[::-1])",
      "for n in range(3): print('basic%d:' % n, base64.b64encode(b'u' * n + b'user:' + b).decode())",
      "print('url:', urllib.parse.quote(s, safe=''))",
      "print('form:', urllib.parse.urlencode({'k': s}))",
    ].join('\n');
    const start = h.model.requests.length;
    h.model.script([
      toolUse('run_code', { language: 'python', code }),
      // A model that re-encodes what it was given: the result is masked too.
      toolUse('finish', { result: { echoed: Buffer.from(TOKEN).toString('base64'), hex: Buffer.from(TOKEN).toString('hex') }, confidence: 'high' }),
    ]);
    const run = await o.run({ prompt: 'Print the tokens encoded', connections: ['enc', 'special'] });
    expect(run).toMatchObject({ status: 'succeeded', result: { echoed: '[secret:enc]', hex: '[secret:enc]' } });
    const seen = toolResults(h.model.requests[start + 1]!)[0]!.text;
    expect(seen).toMatch(/x{100}\[secret:enc\]\n…\[\d+ characters omitted\]…\n/);
    for (const label of ['b64', 'b64url', 'hex', 'rev', 'basic0', 'basic1', 'basic2']) expect(seen, label).toMatch(new RegExp(`${label}: \\S*\\[secret:enc\\]`));
    for (const label of ['url', 'form']) expect(seen, label).toMatch(new RegExp(`${label}: \\S*\\[secret:special\\]`));
    const steps = JSON.stringify((await o.api('GET', `/v1/runs/${run.task_id}/steps`)).body.data);
    for (const form of [...encodedForms(TOKEN), ...encodedForms(SPECIAL_TOKEN), TOKEN.slice(0, 5)]) {
      expect(seen.includes(form), `the model read ${form}`).toBe(false);
      expect(steps.includes(form), `a step holds ${form}`).toBe(false);
    }
  });

  it('apply without being named, as every enabled connection in scope does', async () => {
    const o = org('tokens-unnamed');
    await created(o.api, { name: 'unnamed', type: 'token', secret: 'unnamed_secret_value_1', env_var_name: 'UNNAMED_TOKEN' });
    h.model.script([hashEnv('UNNAMED_TOKEN'), finishWithHash]);
    expect((await o.run({ prompt: 'Hash the token' })).result).toEqual({ sha: sha('unnamed_secret_value_1') });
  });

  it("of a project reach only its runs, and hide the organisation's connection of the same name there", async () => {
    const o = org('tokens-scoped');
    const project = (await o.api('POST', '/v1/projects', { name: 'scoped' })).body;
    await created(o.api, { name: 'scoped', type: 'token', secret: 'org_wide_value_123', env_var_name: 'SCOPED_TOKEN' });
    await created(o.api, { name: 'scoped', type: 'token', secret: 'project_value_456', env_var_name: 'SCOPED_TOKEN', project_id: project.id });
    h.model.script([hashEnv('SCOPED_TOKEN'), finishWithHash]);
    expect((await o.run({ prompt: 'Hash it', project_id: project.id, connections: ['scoped'] })).result).toEqual({ sha: sha('project_value_456') });
    h.model.script([hashEnv('SCOPED_TOKEN'), finishWithHash]);
    expect((await o.run({ prompt: 'Hash it' })).result).toEqual({ sha: sha('org_wide_value_123') });
  });
});

describe('a run naming connections it cannot use', () => {
  it.each([
    ['missing', async (_o: ReturnType<typeof org>) => 'nowhere', /^the run needs the connection 'nowhere', which does not exist/],
    ['disabled', async (o: ReturnType<typeof org>) => (await created(o.api, { name: 'off', type: 'token', secret: TOKEN, is_enabled: false })).name, /'off', which is disabled/],
    ['without a secret', async (o: ReturnType<typeof org>) => (await created(o.api, { name: 'empty', type: 'token' })).name, /'empty', which has no secret/],
  ])('fails at once with auth_required when the connection is %s: no model call, no sandbox, no step', async (what, setUp, detail) => {
    const o = org(`refused-${what.replace(/\W/g, '-')}`);
    const name = await setUp(o);
    const start = h.model.requests.length;
    const runId = await createRun(h.daemon, { prompt: 'Use it', connections: [name] }, o.key);
    const run = await waitForRun(h.daemon, runId, undefined, undefined, o.key);
    expect(run).toMatchObject({ status: 'failed', failure_reason: 'auth_required', usage: { input_tokens: 0, output_tokens: 0, cost_usd: 0 } });
    expect(run.failure_detail).toMatch(detail);
    expect(h.model.requests.length).toBe(start);
    expect(sandboxDirsOf(h.daemon.home, runId)).toEqual([]);
    expect((await o.api('GET', `/v1/runs/${runId}/steps`)).body.data).toEqual([]);
  });

  it("fails a job's run when the job names a missing connection, whatever the run adds", async () => {
    const o = org('refused-job');
    await created(o.api, { name: 'svc', type: 'token', secret: TOKEN });
    const project = (await o.api('GET', '/v1/projects')).body.data[0];
    const job = await o.api('POST', '/v1/jobs', { project_id: project.id, name: 'needs-crm', prompt: 'sync', connections: ['crm'] });
    const accepted = await o.api('POST', `/v1/jobs/${job.body.id}/runs`, { connections: ['svc'] });
    const run = await waitForRun(h.daemon, accepted.body.task_id, undefined, undefined, o.key);
    expect(run).toMatchObject({ status: 'failed', failure_reason: 'auth_required' });
    expect(run.failure_detail).toMatch(/'crm', which does not exist/);
  });
});

function mcpBody(name: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, type: 'mcp', url: mcp.httpUrl, secret: MCP_TOKEN, headers: { Authorization: 'Bearer ${SECRET}' }, ...overrides };
}

describe('mcp connections', () => {
  it('are checked by connecting over streamable HTTP with ${SECRET} substituted', async () => {
    const before = mcp.requests.length;
    const made = await created(org('mcp-check').api, mcpBody('everything'));
    expect(made).toMatchObject({ auth_status: 'authenticated', transport: 'http', headers: { Authorization: 'Bearer ${SECRET}' } });
    expect(made.auth_detail).toMatch(/^connected over streamable HTTP; \d+ tools$/);
    expect(mcp.requests.slice(before).every((r) => r.authorised)).toBe(true);
  });

  it('are failed, with the reason, when the server refuses the credentials', async () => {
    const made = await created(org('mcp-401').api, mcpBody('wrong', { secret: 'not_the_token' }));
    expect(made).toMatchObject({ auth_status: 'failed', auth_detail: 'the server refused the credentials (HTTP 401): check the secret and headers' });
  });

  it('speak HTTP+SSE when told to, and fall back to it when the URL is not a streamable endpoint', async () => {
    const o = org('mcp-sse');
    expect((await created(o.api, mcpBody('sse', { url: mcp.sseUrl, transport: 'sse' }))).auth_detail).toMatch(/^connected over HTTP\+SSE; \d+ tools$/);
    const fallback = await created(o.api, mcpBody('fallback', { url: mcp.sseUrl }));
    expect(fallback).toMatchObject({ auth_status: 'authenticated', transport: 'http' });
    expect(fallback.auth_detail).toMatch(/^connected over HTTP\+SSE/);
  });

  it('are checked again on demand and on PATCH, following the server', async () => {
    const o = org('mcp-recheck');
    const made = await created(o.api, mcpBody('rechecked'));
    mcp.token = 'rotated-by-the-server';
    try {
      expect((await o.api('POST', `/v1/connections/${made.id}/check`)).body).toMatchObject({ auth_status: 'failed' });
      expect((await o.api('PATCH', `/v1/connections/${made.id}`, { secret: 'rotated-by-the-server' })).body).toMatchObject({ auth_status: 'authenticated' });
    } finally {
      mcp.token = MCP_TOKEN;
    }
  });

  it("offer the server's tools as <connection>__<tool>; each call is a step with the server's answer", async () => {
    const o = org('mcp-run');
    await created(o.api, mcpBody('everything'));
    const start = h.model.requests.length;
    h.model.script([
      toolUse('everything__echo', { message: 'hello from the agent' }),
      () => toolUse('everything__get-sum', { a: 2, b: 40 }),
      (request: AnthropicRequest) => toolUse('finish', { result: { said: toolResults(request)[0]!.text }, confidence: 'high' }),
    ]);
    const run = await o.run({ prompt: 'Use the MCP tools', connections: ['everything'] });
    expect(run.status, JSON.stringify(run)).toBe('succeeded');
    expect(run.result.said).toMatch(/42/);
    const requests = h.model.requests.slice(start);
    expect(toolNames(requests[0]!)).toEqual(expect.arrayContaining(['browser', 'run_code', 'everything__echo', 'everything__get-sum', 'finish']));
    expect(toolResults(requests[1]!)[0]).toMatchObject({ text: 'Echo: hello from the agent', isError: false });
    const steps = (await o.api('GET', `/v1/runs/${run.task_id}/steps`)).body.data;
    expect(steps.find((s: { name: string }) => s.name === 'everything__echo')).toMatchObject({ kind: 'tool', input: { message: 'hello from the agent' }, output: 'Echo: hello from the agent', is_error: false });
  });

  it('are checked again when a call is refused with 401, so the status stops saying authenticated', async () => {
    const o = org('mcp-401-midrun');
    const made = await created(o.api, mcpBody('flaky'));
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
      const run = await o.run({ prompt: 'Echo' });
      expect(run.result.error).toMatch(/refused the call \(HTTP 401\); the connection flaky is now failed/);
      expect(toolResults(h.model.requests[start + 1]!)[0]!.isError).toBe(true);
      expect((await o.api('GET', `/v1/connections/${made.id}`)).body).toMatchObject({ auth_status: 'failed' });
    } finally {
      mcp.token = MCP_TOKEN;
    }
  });

  it('are dropped from a run whose server hangs mid-run, once the call has timed out', async () => {
    const o = org('mcp-hang');
    await created(o.api, mcpBody('hangs'));
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
      const run = await o.run({ prompt: 'Echo' });
      expect(run.status).toBe('succeeded');
      expect(toolResults(h.model.requests[start + 1]!)[0]!.text).toMatch(/did not answer within 2 s; the tools of hangs are unavailable for the rest of this run/);
      expect(run.result.note).toMatch(/hangs__echo is unavailable for the rest of this run/);
    } finally {
      mcp.hang(false);
    }
  });

  it('fail a run that named them with auth_required when their server hangs mid-run', async () => {
    const o = org('mcp-hang-named');
    await created(o.api, mcpBody('needed'));
    h.model.script([
      () => {
        mcp.hang(true);
        return toolUse('needed__echo', { message: 'anyone there?' });
      },
    ]);
    try {
      const run = await o.run({ prompt: 'Echo', connections: ['needed'] });
      expect(run).toMatchObject({ status: 'failed', failure_reason: 'auth_required' });
      expect(run.failure_detail).toMatch(/^the connection 'needed' stopped working during the run: the MCP server of needed failed: the server did not answer within 2 s/);
    } finally {
      mcp.hang(false);
    }
  });

  it('whose server is down are left out of a run that did not name them, and marked failed', async () => {
    const o = org('mcp-down');
    const made = await created(o.api, mcpBody('gone', { url: `http://127.0.0.1:${await closedPort()}/mcp` }));
    expect(made.auth_status).toBe('failed');
    const start = h.model.requests.length;
    h.model.script([toolUse('finish', { result: { ok: true }, confidence: 'high' })]);
    expect((await o.run({ prompt: 'Anything' })).status).toBe('succeeded');
    expect(toolNames(h.model.requests[start]!).filter((n) => n.startsWith('gone__'))).toEqual([]);
    expect((await o.api('GET', `/v1/connections/${made.id}`)).body.auth_detail).toMatch(/could not reach the server/);
  });

  it('whose server is down fail a run that named them with auth_required, before any model call or sandbox', async () => {
    const o = org('mcp-down-named');
    await created(o.api, mcpBody('gone', { url: `http://127.0.0.1:${await closedPort()}/mcp` }));
    const start = h.model.requests.length;
    const run = await o.run({ prompt: 'Anything', connections: ['gone'] });
    expect(run).toMatchObject({ status: 'failed', failure_reason: 'auth_required', usage: { input_tokens: 0 } });
    expect(run.failure_detail).toMatch(/^the connection 'gone' could not be used: could not reach the server/);
    expect(h.model.requests.length).toBe(start);
    expect(sandboxDirsOf(h.daemon.home, run.task_id)).toEqual([]);
  });
});

describe('typing a secret by reference', () => {
  it('types the password into a login form inside the sandbox, while no model request or step holds it', async () => {
    const o = org('typing');
    await created(o.api, { name: 'shop', type: 'token', secret: PASSWORD });
    const start = h.model.requests.length;
    h.model.script([
      toolUse('browser', { action: 'navigate', url: `${site.url}/` }),
      toolUse('browser', { action: 'type', selector: '#user', text: 'alice' }),
      toolUse('browser', { action: 'type', selector: '#password', text: '{{secret:shop}}', submit: true }),
      toolUse('browser', { action: 'read_text' }),
      (request: AnthropicRequest) => toolUse('finish', { result: { page: toolResults(request)[0]!.text }, confidence: 'high' }),
    ]);
    const run = await o.run({ prompt: `Log in to ${site.url} as alice with the password {{secret:shop}}` });
    expect(run.status, JSON.stringify(run)).toBe('succeeded');
    expect(logins).toEqual([{ user: 'alice', password: PASSWORD }]);
    expect(run.result.page).toContain('Welcome, alice');
    expect(run.result.page).toContain('Your password is [secret:shop]');
    expect(String(h.model.requests[start]!.body.system)).toContain('{{secret:shop}}');
    const steps = (await o.api('GET', `/v1/runs/${run.task_id}/steps`)).body.data;
    expect(steps.find((s: { name: string; input: { selector?: string } }) => s.name === 'browser.type' && s.input.selector === '#password')).toMatchObject({
      input: { text: '{{secret:shop}}' },
      output: expect.stringContaining('typed into #password and submitted'),
    });
  });

  it('tells the model which secrets it can type when a reference names none of them', async () => {
    const o = org('typing-unknown');
    await created(o.api, { name: 'shop', type: 'token', secret: PASSWORD });
    const start = h.model.requests.length;
    h.model.script([toolUse('browser', { action: 'type', selector: '#password', text: '{{secret:bank}}' }), toolUse('finish', { result: null, failure_reason: 'auth_required', failure_detail: 'no bank password' })]);
    await o.run({ prompt: 'Log in to the bank' });
    expect(toolResults(h.model.requests[start + 1]!)[0]).toMatchObject({ isError: true, text: '{{secret:bank}} names no secret this run can type; it can type {{secret:shop}}' });
  });
});

/** The places `code` stands alone in `text` (not inside a longer number, as in a timestamp). */
const codeIn = (text: string, code: string): boolean => new RegExp(`(?<![0-9])${code}(?![0-9])`).test(text);

describe('typing a TOTP code by reference', () => {
  let o: ReturnType<typeof org>;
  let run: any;
  let start: number;

  beforeAll(async () => {
    o = org('totp');
    await created(o.api, { name: 'bank', type: 'totp', secret: BANK_SEED_GIVEN });
    await created(o.api, { name: 'vault', type: 'totp', secret: VAULT_URI });
    await created(o.api, { name: 'shop', type: 'token', secret: PASSWORD, env_var_name: 'SHOP_TOKEN' });
    start = h.model.requests.length;
    h.model.script([
      toolUse('browser', { action: 'navigate', url: `${site.url}/2fa?account=bank` }),
      toolUse('browser', { action: 'type', selector: '#code', text: '{{totp:bank}}' }),
      // The field's value shows in an accessibility snapshot: the model must read the mask, not the code.
      toolUse('browser', { action: 'snapshot' }),
      toolUse('browser', { action: 'click', selector: 'button' }),
      toolUse('browser', { action: 'read_text' }),
      toolUse('browser', { action: 'navigate', url: `${site.url}/2fa?account=vault` }),
      toolUse('browser', { action: 'type', selector: '#code', text: '{{ totp:vault }}', submit: true }),
      toolUse('browser', { action: 'read_text' }),
      // Code cannot read a seed: none is in its environment, in any form.
      toolUse('run_code', { language: 'bash', code: 'env | sort' }),
      (request: AnthropicRequest) => toolUse('finish', { result: { page: toolResults(request)[0]!.text }, confidence: 'high' }),
    ]);
    // Its run.completed webhook, with the page text in its result, goes to the receiver the final scan reads.
    run = await o.run({ prompt: `Sign in at ${site.url}/2fa with the authenticator codes`, callback_url: receiver.url('/totp') });
  }, 90_000);

  it('types codes the site checks with otplib as valid: 6 digits from a base32 seed, 8 digits SHA256 with a 60 s period from an otpauth URI', () => {
    expect(run.status, JSON.stringify(run)).toBe('succeeded');
    expect(totpLogins.map(({ account, valid }) => ({ account, valid }))).toEqual([{ account: 'bank', valid: true }, { account: 'vault', valid: true }]);
    expect(totpLogins[0]!.code).toMatch(/^\d{6}$/);
    expect(totpLogins[1]!.code).toMatch(/^\d{8}$/);
  });

  it('lets the model see only [totp:<name>] where a page shows a code, and names the codes it can type', () => {
    const requests = h.model.requests.slice(start);
    const system = String(requests[0]!.body.system);
    expect(system).toContain('{{totp:bank}}, {{totp:vault}}');
    expect(system).not.toContain('{{secret:bank}}');
    expect(JSON.stringify(requests[0]!.body.tools)).toContain('{{totp:<name>}}');
    expect(toolResults(requests[3]!)[0]!.text).toMatch(/textbox "Authenticator code"[^\n]* \[ref=e\d+\]: \[totp:bank\]/);
    expect(toolResults(requests[5]!)[0]!.text).toContain('Code [totp:bank] accepted');
    expect(toolResults(requests[8]!)[0]!.text).toContain('Code [totp:vault] accepted');
    const seen = JSON.stringify(requests);
    for (const { code } of totpLogins) expect(codeIn(seen, code), `a model request holds ${code}`).toBe(false);
  });

  it('keeps seeds out of the environment of code', () => {
    const env = toolResults(h.model.requests[start + 9]!)[0]!.text;
    expect(env).toContain('SHOP_TOKEN=[secret:shop]');
    for (const form of [BANK_SEED, BANK_SEED_GIVEN, VAULT_SEED, VAULT_URI]) expect(env).not.toContain(form);
  });

  it("sends the run's webhook with the masked page text, not the code", async () => {
    const delivery = await receiver.waitFor((ds) => ds.find((d) => d.path === '/totp' && d.json?.data?.task_id === run.task_id), 'the run webhook');
    for (const { code } of totpLogins) expect(codeIn(delivery.body, code)).toBe(false);
  });

  it('records the steps with the references as the model wrote them', async () => {
    const steps = (await o.api('GET', `/v1/runs/${run.task_id}/steps`)).body.data;
    const typed = steps.filter((s: { name: string }) => s.name === 'browser.type');
    expect(typed.map((s: { input: { text: string } }) => s.input.text)).toEqual(['{{totp:bank}}', '{{ totp:vault }}']);
    expect(typed[1].output).toContain('typed into #code and submitted');
    for (const { code } of totpLogins) expect(codeIn(JSON.stringify(steps), code), `a step holds ${code}`).toBe(false);
  });

  it('holds neither a code nor a seed in any file of the trace; the fill shows [totp:<name>]', async () => {
    expect(run.evidence.trace_url).toBeTruthy();
    const files = await zipEntries(Buffer.from(await (await fetch(run.evidence.trace_url)).arrayBuffer()));
    const fills: string[] = [];
    for (const [name, body] of files) {
      const text = body.toString('latin1');
      for (const { code } of totpLogins) expect(codeIn(text, code), `${name} holds the code ${code}`).toBe(false);
      for (const form of [BANK_SEED, VAULT_SEED, VAULT_URI]) expect(text.includes(form), `${name} holds a seed`).toBe(false);
      if (name.endsWith('.trace')) fills.push(...[...text.matchAll(/"method":"fill".*?"value":"([^"]*)"/g)].map((m) => m[1]!));
    }
    expect(fills).toEqual(['[totp:bank]', '[totp:vault]']);
  });

  it('refuses {{secret:<name>}} of a TOTP connection, and {{totp:<name>}} of anything else, saying what the run can type', async () => {
    const before = h.model.requests.length;
    h.model.script([
      toolUse('browser', { action: 'type', selector: '#code', text: '{{secret:bank}}' }),
      toolUse('browser', { action: 'type', selector: '#code', text: '{{totp:shop}}' }),
      toolUse('finish', { result: null, failure_reason: 'auth_required', failure_detail: 'no code' }),
    ]);
    await o.run({ prompt: 'Type the seed' });
    expect(toolResults(h.model.requests[before + 1]!)[0]).toMatchObject({ isError: true, text: '{{secret:bank}} names a TOTP connection, whose seed is never typed: write {{totp:bank}} to type its current code' });
    expect(toolResults(h.model.requests[before + 2]!)[0]).toMatchObject({ isError: true, text: '{{totp:shop}} names no TOTP connection of this run; it can type {{totp:bank}}, {{totp:vault}}' });
  });
});

describe('proxy connections', () => {
  /** Code that fetches a page of the site through whatever proxy its environment names, and says which. */
  const fetchInCode = (url: string) =>
    toolUse('run_code', {
      language: 'python',
      code:
        'import os, urllib.request\n' +
        "print('proxy vars:', sorted(k for k in os.environ if k.lower().endswith('_proxy')))\n" +
        "print('HTTP_PROXY:', os.environ.get('HTTP_PROXY'))\n" +
        `print('body:', urllib.request.urlopen('${url}', timeout=20).read().decode())`,
    });

  async function keepTrace(run: { evidence: { trace_url: string | null } | null }): Promise<void> {
    const url = run.evidence?.trace_url;
    if (url === null || url === undefined) return;
    for (const bytes of (await zipEntries(Buffer.from(await (await fetch(url)).arrayBuffer()))).values()) traces.push(bytes);
  }

  it("send the run's browser and code through the proxy, which logs those requests and nothing else", async () => {
    const o = org('proxied');
    const made = await created(o.api, { name: 'corp', type: 'proxy', url: `http://runner:${encodeURIComponent(PROXY_PASSWORD)}@127.0.0.1:${proxy.port}` });
    expect(made).toMatchObject({ url: proxy.url, has_secret: true });
    const from = proxy.log.length;
    const start = h.model.requests.length;
    h.model.script([
      toolUse('browser', { action: 'navigate', url: `${site.url}/via-proxy` }),
      fetchInCode(`${site.url}/code-via-proxy`),
      (request: AnthropicRequest) => toolUse('finish', { result: { code: toolResults(request)[0]!.text }, confidence: 'high' }),
    ]);
    const run = await o.run({ prompt: 'Look at the page through the proxy', proxy: 'corp', callback_url: receiver.url('/proxied') });
    expect(run.status, JSON.stringify(run)).toBe('succeeded');
    const browsed = toolResults(h.model.requests[start + 1]!)[0]!.text;
    expect(browsed).toContain('title: Proxied');
    const code: string = run.result.code;
    expect(code).toContain('body: code came through');
    // Code sees the sandbox's own forwarder, on its loopback, without credentials.
    expect(code).toContain("proxy vars: ['ALL_PROXY', 'HTTPS_PROXY', 'HTTP_PROXY', 'all_proxy', 'http_proxy', 'https_proxy']");
    const forwarder = /HTTP_PROXY: (\S+)/.exec(code)?.[1];
    expect(forwarder).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(forwarder).not.toBe(proxy.url);
    const seen = proxy.log.slice(from);
    expect(seen.every((line) => line.authorized), JSON.stringify(seen)).toBe(true);
    expect(seen.map((line) => line.target)).toEqual(expect.arrayContaining([`${site.url}/via-proxy`, `${site.url}/code-via-proxy`]));
    // Nothing but the run's own pages (the browser asks for the site's icon too), none of Chromium's own traffic.
    expect(seen.map((line) => line.target).sort()).toEqual([`${site.url}/code-via-proxy`, `${site.url}/favicon.ico`, `${site.url}/via-proxy`]);
    await keepTrace(run);
  });

  it("lets a job's runs leave through its proxy, and a run's own proxy win over the job's", async () => {
    const o = org('proxied-job');
    await created(o.api, { name: 'job-proxy', type: 'proxy', url: `http://127.0.0.1:${proxy.port}`, secret: `runner:${PROXY_PASSWORD}` });
    await created(o.api, { name: 'dead-proxy', type: 'proxy', url: `http://runner:x-wrong-pass@127.0.0.1:${await closedPort()}` });
    const project = (await o.api('POST', '/v1/projects', { name: 'jobs via proxy' })).body.id;
    const job = (await o.api('POST', '/v1/jobs', { project_id: project, name: 'proxied', prompt: 'Look at the page', proxy: 'dead-proxy' })).body;
    const from = proxy.log.length;
    h.model.script([toolUse('browser', { action: 'navigate', url: `${site.url}/via-proxy` }), toolUse('finish', { result: { ok: true }, confidence: 'high' })]);
    const created1 = await o.api('POST', `/v1/jobs/${job.id}/runs`, { proxy: 'job-proxy' });
    expect(created1.status).toBe(202);
    const run = await waitForRun(h.daemon, created1.body.task_id, undefined, undefined, o.key);
    expect(run.status, JSON.stringify(run)).toBe('succeeded');
    expect(proxy.log.slice(from).map((line) => line.target)).toContain(`${site.url}/via-proxy`);
  });

  it('fails the run as site_down naming the proxy, not the site, when the proxy is down', async () => {
    const o = org('proxy-down');
    const port = await closedPort();
    await created(o.api, { name: 'down', type: 'proxy', url: `http://runner:${encodeURIComponent(PROXY_PASSWORD)}@127.0.0.1:${port}` });
    // The failed navigation ends the run: the agent gets no further turn.
    h.model.script([toolUse('browser', { action: 'navigate', url: `${site.url}/via-proxy` })]);
    const run = await o.run({ prompt: 'Look at the page', proxy: 'down' });
    expect(run).toMatchObject({ status: 'failed', failure_reason: 'site_down' });
    expect(run.failure_detail).toBe(`the proxy http://127.0.0.1:${port} (connection 'down') refused the connection (ECONNREFUSED): it is down, or not listening there`);
  });

  it('fails the run as site_down naming the proxy when it refuses the credentials', async () => {
    const o = org('proxy-refuses');
    await created(o.api, { name: 'wrong', type: 'proxy', url: `http://runner:not-the-password@127.0.0.1:${proxy.port}` });
    h.model.script([toolUse('browser', { action: 'navigate', url: `${site.url}/via-proxy` })]);
    const run = await o.run({ prompt: 'Look at the page', proxy: 'wrong', callback_url: receiver.url('/proxy-refuses') });
    expect(run).toMatchObject({ status: 'failed', failure_reason: 'site_down' });
    expect(run.failure_detail).toBe(`the proxy ${proxy.url} (connection 'wrong') refused the run’s credentials (HTTP 407 Proxy Authentication Required)`);
    expect(run.failure_detail).not.toContain('not-the-password');
    const webhook = await until('the run.failed webhook', async () => receiver.deliveries.find((d) => d.path === '/proxy-refuses' && d.body.includes(run.task_id)));
    expect(webhook.body).toContain(`(connection 'wrong') refused the run’s credentials`);
  });

  it('fails a run naming a missing or non-proxy connection as its proxy with auth_required, before any model call', async () => {
    const o = org('proxy-missing');
    await created(o.api, { name: 'a-token', type: 'token', secret: 'tok_not_a_proxy_99' });
    const start = h.model.requests.length;
    const missing = await o.run({ prompt: 'Look', proxy: 'nowhere' });
    expect(missing).toMatchObject({ status: 'failed', failure_reason: 'auth_required', failure_detail: expect.stringContaining("the proxy connection 'nowhere', which does not exist") });
    const token = await o.run({ prompt: 'Look', proxy: 'a-token' });
    expect(token).toMatchObject({ status: 'failed', failure_reason: 'auth_required', failure_detail: expect.stringContaining('which is a token connection, not a proxy') });
    expect(h.model.requests.length).toBe(start);
  });
});

/** Opens a connect link in Chromium and clicks through: our start page, the provider (which approves at once), back. */
async function connectInBrowser(url: string): Promise<{ page: Page; startHtml: string }> {
  const page = await browser.newPage();
  const response = await page.goto(url);
  expect(response?.status()).toBe(200);
  const startHtml = await page.content();
  bodies.push(startHtml);
  await page.getByRole('button', { name: 'Continue to acme' }).click();
  // Through the provider (which approves at once) and our callback, to the caller's page or ours.
  await page.waitForURL((at) => !/^\/v1\/connect\/clk_/.test(at.pathname) && !at.pathname.startsWith('/authorize'));
  bodies.push(await page.content());
  return { page, startHtml };
}

describe('hosted connect', () => {
  let o: ReturnType<typeof org>;
  /** For the links that go wrong, so that their connections take no part in the refresh counts of `o`'s runs. */
  let misc: ReturnType<typeof org>;
  let connectionId: string;

  beforeAll(async () => {
    o = org('oauth');
    misc = org('oauth-misc');
    receiver.secrets = [signingSecretOf(h.daemon.home, o.orgId)];
    const set = await runCli(['--home', h.daemon.home, 'webhooks', 'endpoint', 'set', receiver.url('/org'), '--org', 'oauth', '--json'], { env: { ERRAND_DEV: '1' } });
    expect(set.code, set.stderr).toBe(0);
    expect(set.json()).toMatchObject({ object: 'webhook_endpoint', org_id: o.orgId, url: receiver.url('/org') });
  });

  it('runs authorization code with PKCE (S256) and state in a real browser, stores the tokens sealed and returns to the caller', async () => {
    const link = await o.api('POST', '/v1/connections/links', { provider: 'acme', redirect_url: `${site.url}/back` });
    expect(link.status).toBe(201);
    expect(link.body).toMatchObject({ object: 'connection_link', connection_id: expect.stringMatching(/^conn_/) });
    expect(link.body.url).toMatch(new RegExp(`^${h.daemon.url}/v1/connect/clk_[0-9a-z]{26}\\?expires=\\d+&sig=[\\w-]+$`));
    expect(Date.parse(link.body.expires_at) - Date.now()).toBeGreaterThan(14 * 60_000);
    connectionId = link.body.connection_id;
    expect((await o.api('GET', `/v1/connections/${connectionId}`)).body).toMatchObject({ type: 'oauth', provider: 'acme', auth_status: 'pending', has_secret: false, env_var_name: 'ACME_ACCESS_TOKEN' });
    expect(link.body.url).toContain(`/v1/connect/${link.body.id}?`);
    expect((await o.api('GET', `/v1/connections/links/${link.body.id}`)).body).toEqual({
      object: 'connection_link', livemode: true, id: link.body.id, connection_id: connectionId, status: 'pending', detail: null, expires_at: link.body.expires_at,
    });

    const { page, startHtml } = await connectInBrowser(link.body.url);
    expect(startHtml).toContain('<html lang="en">');
    expect(startHtml).toContain('<h1>Connect acme</h1>');
    expect(new URL(page.url()).pathname).toBe('/back');
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ connection_id: connectionId, status: 'authenticated' });
    await page.close();

    const [authorization] = provider.authorizations;
    expect(authorization).toMatchObject({ response_type: 'code', client_id: 'errand-test', code_challenge_method: 'S256', scope: 'read write', redirect_uri: `${h.daemon.url}/v1/connect/callback` });
    expect(authorization!.state).toMatch(/^[\w-]{20,}$/);
    expect(provider.tokenRequests).toEqual([{ grant: 'authorization_code', codeVerifier: true }]);
    const after = (await o.api('GET', `/v1/connections/${connectionId}`)).body;
    expect(after).toMatchObject({ auth_status: 'authenticated', has_secret: true, auth_detail: 'connected through hosted connect' });
    expect((await o.api('GET', `/v1/connections/links/${link.body.id}`)).body).toMatchObject({ status: 'authenticated', detail: null });
    // Another organisation cannot see the link.
    expect((await misc.api('GET', `/v1/connections/links/${link.body.id}`)).status).toBe(404);
    expect(Date.parse(after.expires_at)).toBeGreaterThan(Date.now());

    const announced = await receiver.waitFor((ds) => ds.find((d) => d.path === '/org' && d.json?.event === 'connection.authenticated'), 'connection.authenticated');
    expect(announced.verifiedWith).not.toBeNull();
    expect(announced.json.data).toMatchObject({ id: connectionId, object: 'connection', auth_status: 'authenticated' });
  });

  it('refuses to use a link twice', async () => {
    const link = await misc.api('POST', '/v1/connections/links', { provider: 'acme', name: 'acme-twice', env_var_name: 'TWICE_TOKEN' });
    const { page } = await connectInBrowser(link.body.url);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Connected');
    const again = await page.goto(link.body.url);
    expect(again?.status()).toBe(409);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('This link was already used');
    bodies.push(await page.content());
    await page.close();
  });

  it('answers a link whose signature or expiry was changed with 403, as a page', async () => {
    const link = await misc.api('POST', '/v1/connections/links', { provider: 'acme', name: 'acme-tampered', env_var_name: 'TAMPERED_TOKEN' });
    const forged = await fetch(link.body.url.replace(/sig=[\w-]+/, 'sig=forged'));
    expect(forged.status).toBe(403);
    expect(forged.headers.get('content-type')).toMatch(/^text\/html/);
    const expired = await fetch(link.body.url.replace(/expires=\d+/, 'expires=1000'));
    expect(expired.status).toBe(403);
    bodies.push(await forged.text(), await expired.text());
  });

  it('returns to the caller with status=failed when the person declines', async () => {
    provider.denyWith = 'access_denied';
    try {
      const link = await misc.api('POST', '/v1/connections/links', { provider: 'acme', name: 'acme-declined', env_var_name: 'DECLINED_TOKEN', redirect_url: `${site.url}/back` });
      const { page } = await connectInBrowser(link.body.url);
      expect(Object.fromEntries(new URL(page.url()).searchParams)).toMatchObject({ connection_id: link.body.connection_id, status: 'failed', error: expect.stringContaining('access_denied') });
      await page.close();
      expect((await misc.api('GET', `/v1/connections/${link.body.connection_id}`)).body).toMatchObject({ auth_status: 'failed', has_secret: false });
      expect((await misc.api('GET', `/v1/connections/links/${link.body.id}`)).body).toMatchObject({ status: 'failed', detail: expect.stringContaining('access_denied') });
    } finally {
      provider.denyWith = null;
    }
  });

  it('says the link failed when connecting an authenticated connection again fails, while the connection keeps its tokens', async () => {
    const first = await misc.api('POST', '/v1/connections/links', { provider: 'acme', name: 'acme-again', env_var_name: 'AGAIN_TOKEN' });
    await (await connectInBrowser(first.body.url)).page.close();
    expect((await misc.api('GET', `/v1/connections/links/${first.body.id}`)).body.status).toBe('authenticated');
    const before = (await misc.api('GET', `/v1/connections/${first.body.connection_id}`)).body;
    provider.denyWith = 'access_denied';
    try {
      const again = await misc.api('POST', '/v1/connections/links', { provider: 'acme', name: 'acme-again' });
      expect(again.body.connection_id).toBe(first.body.connection_id);
      const { page } = await connectInBrowser(again.body.url);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('The connection was not made');
      await page.close();
      expect((await misc.api('GET', `/v1/connections/links/${again.body.id}`)).body).toMatchObject({ status: 'failed', detail: expect.stringContaining('access_denied') });
      expect((await misc.api('GET', `/v1/connections/${first.body.connection_id}`)).body).toMatchObject({
        auth_status: 'authenticated', has_secret: true, auth_checked_at: before.auth_checked_at,
      });
    } finally {
      provider.denyWith = null;
    }
  });

  it('answers 404 for a link id it does not know', async () => {
    const res = await misc.api('GET', '/v1/connections/links/clk_00000000000000000000000000');
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ type: 'not_found_error', code: 'resource_missing' });
  });

  it('refreshes a token about to expire before a run gets it, and injects the fresh one as env_var_name', async () => {
    const refreshesBefore = provider.grants('refresh_token');
    h.model.script([hashEnv('ACME_ACCESS_TOKEN'), finishWithHash]);
    const run = await o.run({ prompt: 'Hash the token', connections: ['acme'] });
    expect(provider.grants('refresh_token')).toBe(refreshesBefore + 1);
    const fresh = provider.issued.at(-1)!;
    expect(fresh.grant).toBe('refresh_token');
    expect(run.result).toEqual({ sha: sha(fresh.accessToken) });
  });

  it('sends one refresh request to the provider when two runs need one at once', async () => {
    // The last refresh gave a short-lived token again, so both runs find it due.
    provider.holdRefreshes(true);
    const before = provider.grants('refresh_token');
    // The two runs' model calls interleave: each turn answers by what its request holds.
    const turn = (request: AnthropicRequest) => (toolResults(request).length === 0 ? hashEnv('ACME_ACCESS_TOKEN') : finishWithHash(request));
    h.model.script([turn, turn, turn, turn]);
    provider.lifetime = 'long';
    const ids = [await createRun(h.daemon, { prompt: 'one', connections: ['acme'] }, o.key), await createRun(h.daemon, { prompt: 'two', connections: ['acme'] }, o.key)];
    try {
      await until('a held refresh and both runs claimed', async () => {
        const runs = await Promise.all(ids.map((id) => o.api('GET', `/v1/runs/${id}`)));
        return provider.held() >= 1 && runs.every((r) => r.body.status === 'running');
      });
    } finally {
      provider.holdRefreshes(false);
    }
    const runs = await Promise.all(ids.map((id) => waitForRun(h.daemon, id, undefined, undefined, o.key)));
    expect(provider.grants('refresh_token')).toBe(before + 1);
    const fresh = provider.issued.at(-1)!;
    expect(runs.map((r) => r.result)).toEqual([{ sha: sha(fresh.accessToken) }, { sha: sha(fresh.accessToken) }]);
  });

  it('expires the connection when the provider refuses the refresh (400), announces it, and fails the runs that name it', async () => {
    provider.lifetime = 'short';
    provider.refreshes = 'refuse';
    // A fresh connection whose token is short-lived from the start, so the next run must refresh it.
    const link = await o.api('POST', '/v1/connections/links', { provider: 'acme', name: 'acme-revoked', env_var_name: 'REVOKED_TOKEN' });
    (await connectInBrowser(link.body.url)).page.close();
    const start = h.model.requests.length;
    const named = await o.run({ prompt: 'Use it', connections: ['acme-revoked'] });
    expect(named).toMatchObject({ status: 'failed', failure_reason: 'auth_required' });
    expect(named.failure_detail).toMatch(/'acme-revoked', which is expired \(the provider refused to refresh the token \(the provider answered invalid_grant: the refresh token was revoked\); connect again\)/);
    expect(h.model.requests.length).toBe(start);
    expect((await o.api('GET', `/v1/connections/${link.body.connection_id}`)).body).toMatchObject({ auth_status: 'expired' });
    const expired = await receiver.waitFor((ds) => ds.find((d) => d.json?.event === 'connection.expired' && d.json.data.id === link.body.connection_id), 'connection.expired');
    expect(expired.verifiedWith).not.toBeNull();

    // A run that does not name it goes on without it.
    h.model.script([hashEnv('REVOKED_TOKEN'), finishWithHash]);
    expect((await o.run({ prompt: 'Anything' })).result).toEqual({ sha: sha('unset') });
  });

  it('says hosted connect is disabled or the provider unknown with 400', async () => {
    const unknown = await o.api('POST', '/v1/connections/links', { provider: 'nosuch' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: 'unknown_provider', param: 'provider' });
  });
});

describe('no secret anywhere', () => {
  it('finds no secret the suite used in any response body, webhook, the log, the database and WAL files, any model request or the proxied runs\' traces', async () => {
    const secrets = [...SECRETS, ...provider.issued.flatMap((t) => [t.accessToken, t.refreshToken ?? ''])].filter((s) => s.length >= 6);
    expect(secrets.length).toBeGreaterThan(SECRETS.length);
    const { database } = dataPaths(h.daemon.home);
    const files = [database, `${database}-wal`].filter((f) => existsSync(f)).map((f) => ({ where: f, bytes: readFileSync(f) }));
    expect(files.length).toBe(2);
    const places = [
      { where: 'response bodies', text: bodies.join('\n') },
      { where: 'the daemon log', text: h.daemon.logs() },
      { where: 'model requests', text: JSON.stringify(h.model.requests) },
      { where: 'webhooks', text: receiver.deliveries.map((d) => d.body).join('\n') },
      { where: 'the proxied runs\' traces', text: Buffer.concat(traces).toString('latin1') },
    ];
    expect(traces.length).toBeGreaterThan(0);
    expect(receiver.deliveries.length).toBeGreaterThanOrEqual(2);
    expect(bodies.length).toBeGreaterThan(50);
    const seeds = [BANK_SEED, BANK_SEED.replace(/=+$/, ''), BANK_SEED_GIVEN, VAULT_SEED, VAULT_SEED.toLowerCase(), VAULT_URI];
    for (const secret of [...secrets, ...seeds, ...encodedForms(TOKEN), ...encodedForms(SPECIAL_TOKEN), ...encodedForms(PROXY_PASSWORD), ...encodedForms(`runner:${PROXY_PASSWORD}`)]) {
      for (const place of places) expect(place.text.includes(secret), `${place.where} hold ${secret}`).toBe(false);
      for (const file of files) expect(file.bytes.includes(Buffer.from(secret)), `${file.where} holds ${secret}`).toBe(false);
    }
    expect(totpLogins.length).toBeGreaterThanOrEqual(2);
    for (const { code } of totpLogins) {
      for (const place of places) expect(codeIn(place.text, code), `${place.where} hold the TOTP code ${code}`).toBe(false);
      for (const file of files) expect(codeIn(file.bytes.toString('latin1'), code), `${file.where} holds the TOTP code ${code}`).toBe(false);
    }
  });
});
