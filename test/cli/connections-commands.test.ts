import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isoTime } from '../../src/clock.js';
import { createIdFactory } from '../../src/ids.js';
import { withStore } from '../api/harness.js';
import { closedPort } from '../engine/harness.js';
import { startOAuthProvider, type OAuthProviderFixture } from '../fixtures/oauth-provider.js';
import { startDaemon, type TestDaemon } from '../fixtures/test-daemon.js';
import { cleanEnv, runCli } from './run-cli.js';

let daemon: TestDaemon;
let provider: OAuthProviderFixture;
const SECRET = 'cli_secret_Qw81mZr4';
const env = () => ({ ERRAND_API_URL: daemon.url, ERRAND_API_KEY: daemon.key });
const cli = (args: string[], input?: string) => runCli(args, { env: env(), ...(input === undefined ? {} : { input }) });

beforeAll(async () => {
  provider = await startOAuthProvider();
  daemon = await startDaemon({ env: { ANTHROPIC_API_KEY: '', ERRAND_OAUTH_PROVIDERS: JSON.stringify({ acme: provider.config('cli-client-secret') }) } });
});
afterAll(async () => {
  await daemon?.cleanup();
  await provider?.close();
});

describe('errand connections', () => {
  it('creates a token connection with the secret from stdin, and never prints the secret', async () => {
    const made = await cli(['connections', 'create', '--name', 'gh', '--type', 'token', '--secret-stdin', '--env-var-name', 'GH_TOKEN', '--json'], `${SECRET}\n`);
    expect(made.code, made.stderr).toBe(0);
    expect(made.json()).toMatchObject({ name: 'gh', type: 'token', has_secret: true, env_var_name: 'GH_TOKEN', auth_status: 'authenticated' });
    expect(made.stdout + made.stderr).not.toContain(SECRET);

    const human = await cli(['connections', 'get', 'gh']);
    expect(human.stdout).toMatch(/^id:\s+conn_/);
    expect(human.stdout).toMatch(/secret:\s+set \(never shown\)/);
    const list = await cli(['connections', 'list']);
    expect(list.stdout.split('\n')[0]).toMatch(/^ID\s+NAME\s+TYPE\s+STATUS\s+SCOPE\s+DETAIL$/);
    expect(list.stdout).toMatch(/gh\s+token\s+authenticated\s+organisation/);
  });

  it('takes the secret from an environment variable, and has no flag that would put it in the shell history', async () => {
    const made = await runCli(['connections', 'create', '--name', 'from-env', '--type', 'token', '--secret-from-env', 'MY_TOKEN', '--json'], { env: { ...env(), MY_TOKEN: SECRET } });
    expect(made.json()).toMatchObject({ has_secret: true });
    const refused = await cli(['connections', 'create', '--name', 'nope', '--type', 'token', '--secret', SECRET]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("unknown option '--secret'");
  });

  it('updates, disables and deletes by name, and says what the API refused', async () => {
    const updated = await cli(['connections', 'update', 'from-env', '--disable', '--clear-secret', '--json']);
    expect(updated.json()).toMatchObject({ is_enabled: false, has_secret: false, auth_status: 'pending' });
    const clash = await cli(['connections', 'update', 'from-env', '--name', 'gh']);
    expect(clash.code).toBe(1);
    expect(clash.stderr).toMatch(/already has a connection named gh \(connection_name_taken, name\)/);
    const deleted = await cli(['connections', 'delete', 'from-env']);
    expect(deleted.stdout).toMatch(/^deleted connection conn_\w+ and its secret\n$/);
    expect((await cli(['connections', 'get', 'from-env'])).stderr).toBe('error: no connection named from-env\n');
  });

  it('creates a totp connection from an otpauth URI on stdin, and says what is wrong with a bad seed without echoing it', async () => {
    const seed = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    const made = await cli(['connections', 'create', '--name', 'bank-2fa', '--type', 'totp', '--secret-stdin', '--json'], `otpauth://totp/Bank:alice?secret=${seed}&digits=8\n`);
    expect(made.code, made.stderr).toBe(0);
    expect(made.json()).toMatchObject({ name: 'bank-2fa', type: 'totp', has_secret: true, env_var_name: null, auth_status: 'authenticated' });
    expect(made.stdout + made.stderr).not.toContain(seed);
    expect((await cli(['connections', 'list'])).stdout).toMatch(/bank-2fa\s+totp\s+authenticated/);
    const bad = await cli(['connections', 'create', '--name', 'bad-2fa', '--type', 'totp', '--secret-stdin'], `otpauth://totp/x?secret=${seed}&algorithm=MD5\n`);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/algorithm "MD5" is not supported: use SHA1, SHA256 or SHA512 \(invalid_totp_seed, secret\)/);
    expect(bad.stderr).not.toContain(seed);
  });

  it('checks a connection, exiting 1 when it is not authenticated', async () => {
    const port = await closedPort();
    await cli(['connections', 'create', '--name', 'mcp-down', '--type', 'mcp', '--url', `http://127.0.0.1:${port}/mcp`]);
    const checked = await cli(['connections', 'check', 'mcp-down']);
    expect(checked.code).toBe(1);
    expect(checked.stdout).toMatch(/status:\s+failed/);
    expect(checked.stdout).toMatch(/detail:\s+could not reach the server/);
    expect((await cli(['connections', 'check', 'gh'])).code).toBe(0);
  });
});

/** `errand connections link --provider acme` in a child process, once it has printed the link. */
async function startLink(): Promise<{ url: string; stderr: () => string; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, [fileURLToPath(new URL('../../bin/errand', import.meta.url)), 'connections', 'link', '--provider', 'acme'], {
    env: cleanEnv(env()),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const [url] = (await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next()).value.split('\n') as string[];
  return { url: url!, stderr: () => stderr, exited };
}

/** What the browser does after the link's page: its button, the provider (approving unless told to deny), our callback. */
async function signIn(url: string): Promise<Response> {
  const link = new URL(url);
  const start = await fetch(`${link.origin}${link.pathname}/start${link.search}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, redirect: 'manual' });
  expect(start.status).toBe(303);
  const authorize = await fetch(start.headers.get('location')!, { redirect: 'manual' });
  return fetch(authorize.headers.get('location')!, { redirect: 'manual' });
}

describe('errand connections link', () => {
  it('prints the link with --no-wait --json and returns', async () => {
    const linked = await cli(['connections', 'link', '--provider', 'acme', '--name', 'acme-later', '--env-var-name', 'LATER_TOKEN', '--no-wait', '--json']);
    expect(linked.code, linked.stderr).toBe(0);
    expect(linked.json()).toMatchObject({ object: 'connection_link', connection_id: expect.stringMatching(/^conn_/), url: expect.stringContaining('/v1/connect/clk_') });
  });

  it("says until when the link works with its date and zone, in the terminal's time", async () => {
    const linked = await runCli(['connections', 'link', '--provider', 'acme', '--name', 'acme-zone', '--env-var-name', 'ZONE_TOKEN', '--no-wait'], { env: { ...env(), TZ: 'Asia/Kolkata' } });
    expect(linked.code, linked.stderr).toBe(0);
    const until = /before (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) UTC\+05:30 \(Asia\/\w+\) to connect acme/.exec(linked.stderr);
    expect(until, linked.stderr).not.toBeNull();
    // 15 minutes from now, as the clock in Kolkata reads it.
    const expected = new Date(Date.now() + 15 * 60_000 + 5.5 * 3600_000).toISOString().slice(0, 16).replace('T', ' ');
    expect(Math.abs(Date.parse(`${until![1]!.replace(' ', 'T')}Z`) - Date.parse(`${expected.replace(' ', 'T')}:00Z`))).toBeLessThanOrEqual(90_000);
  });

  it('prints the URL, waits while someone approves in a browser, and ends when the connection is authenticated', async () => {
    const linking = await startLink();
    expect(linking.url).toMatch(/\/v1\/connect\/clk_\w+\?expires=\d+&sig=/);
    // Once it has looked at the link unopened: signing in before its first look would race it.
    await expect.poll(linking.stderr, { timeout: 10_000 }).toContain('waiting for someone to open the link and approve');
    expect((await fetch(linking.url)).status).toBe(200);
    expect((await signIn(linking.url)).status).toBe(200);

    expect(await linking.exited).toBe(0);
    expect(linking.stderr()).toContain('open the link above in a browser before');
    expect(linking.stderr()).toContain('waiting for someone to open the link and approve');
    expect(linking.stderr()).toMatch(/connected: acme \(conn_\w+\) is authenticated/);
  });

  it('ends with exit 1 as soon as connecting an authenticated connection again fails, saying it keeps its tokens', async () => {
    provider.denyWith = 'access_denied';
    try {
      const linking = await startLink();
      expect((await signIn(linking.url)).status).toBe(400);

      // The link would work for 15 minutes more: the command ends on the failure, not on the expiry.
      expect(await linking.exited).toBe(1);
      expect(linking.stderr()).toMatch(/not connected: .*access_denied.*; acme keeps the tokens it had, and stays authenticated/);
      const connection = await cli(['connections', 'get', 'acme', '--json']);
      expect(connection.json()).toMatchObject({ auth_status: 'authenticated', has_secret: true });
    } finally {
      provider.denyWith = null;
    }
  });

  it('shows a connection whose link expired unused as expired, not pending forever', async () => {
    const { connectionId } = withStore(daemon, (store) => {
      const ids = createIdFactory();
      const id = ids('conn');
      const at = isoTime(Date.now() - 20 * 60_000);
      store.connections.insert({ id, org_id: daemon.orgId, project_id: null, name: 'acme-lapsed', type: 'oauth', env_var_name: 'LAPSED_TOKEN', provider: 'acme', auth_status: 'pending', created_at: at, updated_at: at });
      store.connections.insertLink({ id: ids('clk'), org_id: daemon.orgId, connection_id: id, redirect_url: null, expires_at: Date.now() - 5 * 60_000, created_at: at });
      return { connectionId: id };
    });
    const got = await cli(['connections', 'get', 'acme-lapsed', '--json']);
    expect(got.json()).toMatchObject({ id: connectionId, auth_status: 'expired', auth_detail: expect.stringContaining('its connect link expired before anyone connected it') });
    const listed = (await daemon.api('GET', '/v1/connections?limit=200')).body.data.find((c: { id: string }) => c.id === connectionId);
    expect(listed.auth_status).toBe('expired');
  });
});
