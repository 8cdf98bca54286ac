/**
 * `errand profiles` (docs/api.md, Profiles), as a user runs it: a Playwright storage-state file imported and never
 * printed again, how it is checked and when it expires set and changed, a check on demand against a site on
 * loopback that really reads the session cookie (exit 0 signed in, 1 signed out), the runs that used it, deletion.
 */
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../fixtures/temp-dir.js';
import { startDaemon, type TestDaemon } from '../fixtures/test-daemon.js';
import { runCli } from './run-cli.js';

const SESSION = 'cli-session-5d2e8a1f7c3b9e4a';
const TOKEN = 'cli-token-8f3a6c1e9b2d7e5a';

let daemon: TestDaemon;
let site: Server;
let siteUrl: string;
/** The session the site accepts; another (or none) is signed out. */
let accepted = SESSION;
let scratch: ReturnType<typeof tempDir>;
const cli = (args: string[], input?: string) => runCli(args, { env: { ERRAND_API_URL: daemon.url, ERRAND_API_KEY: daemon.key }, ...(input === undefined ? {} : { input }) });

function storageState(): object {
  return {
    cookies: [{ name: 'sid', value: SESSION, domain: '127.0.0.1', path: '/', expires: -1, httpOnly: true, secure: false, sameSite: 'Lax' }],
    origins: [{ origin: siteUrl, localStorage: [{ name: 'token', value: TOKEN }] }],
  };
}

beforeAll(async () => {
  scratch = tempDir('errand-profiles-cli-');
  site = createServer((req, res) => {
    const signedIn = (req.headers.cookie ?? '').split(';').some((c) => c.trim() === `sid=${accepted}`);
    res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' });
    res.end(signedIn ? '<!doctype html><title>Account</title><h1>Signed in as Ada</h1><a href="/logout">Sign out</a>' : '<!doctype html><title>Sign in</title><h1>Please sign in</h1>');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  daemon = await startDaemon({ env: { ANTHROPIC_API_KEY: '' } });
}, 60_000);

afterAll(async () => {
  await daemon?.cleanup();
  await new Promise<void>((resolve) => (site ? site.close(() => resolve()) : resolve()));
  scratch?.remove();
});

describe('errand profiles', () => {
  it('imports a storage-state file with its check and expiry, and never prints a cookie or a stored value', async () => {
    const file = join(scratch.path, 'state.json');
    writeFileSync(file, JSON.stringify(storageState()));
    const made = await cli(['profiles', 'import', 'acme', file, '--check-url', `${siteUrl}/account`, '--check-text', 'Signed in as', '--expires', '30d', '--json']);
    expect(made.code, made.stderr).toBe(0);
    const profile = made.json();
    expect(profile).toMatchObject({ name: 'acme', has_state: true, saved_via: 'import', origins: ['127.0.0.1', siteUrl], check: { url: `${siteUrl}/account`, text: 'Signed in as' }, health: 'unknown' });
    const days = (Date.parse(profile.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThan(30.1);

    const human = await cli(['profiles', 'get', 'acme']);
    expect(human.stdout).toMatch(/^id:\s+prf_/);
    expect(human.stdout).toMatch(/state:\s+saved, \d+ bytes \(never shown\)/);
    expect(human.stdout).toContain(`check:     text "Signed in as" at ${siteUrl}/account`);
    const list = await cli(['profiles', 'list']);
    expect(list.stdout.split('\n')[0]).toMatch(/^ID\s+NAME\s+HEALTH\s+SITES\s+SAVED\s+LAST USED$/);
    expect(list.stdout).toMatch(/acme\s+unknown\s+127\.0\.0\.1/);
    for (const out of [made, human, list]) expect(out.stdout + out.stderr).not.toMatch(new RegExp(`${SESSION}|${TOKEN}`));
  });

  it('imports from stdin, and refuses a file that is not a storage state with exit 2, naming what is wrong', async () => {
    const piped = await cli(['profiles', 'import', 'from-stdin', '-', '--json'], JSON.stringify(storageState()));
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.json()).toMatchObject({ name: 'from-stdin', has_state: true, check: null });
    const notJson = await cli(['profiles', 'import', 'bad', '-'], 'cookies=1');
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toContain("stdin is not JSON");
    const notState = await cli(['profiles', 'import', 'bad', '-'], '{"cookies": []}');
    expect(notState.code).toBe(2);
    expect(notState.stderr).toContain('is not a Playwright storage state: it has no "cookies" and "origins" lists');
    const halfCheck = await cli(['profiles', 'import', 'bad', '-', '--check-text', 'Sign out'], JSON.stringify(storageState()));
    expect(halfCheck.code).toBe(2);
    expect(halfCheck.stderr).toContain('a check needs --check-url');
    const taken = await cli(['profiles', 'import', 'acme', '-'], JSON.stringify(storageState()));
    expect(taken.code).toBe(1);
    expect(taken.stderr).toMatch(/already has a profile named acme \(profile_name_taken, name\)/);
  });

  it('checks a profile on demand in a browser of its own: exit 0 signed in; exit 1 and signed_out once the site forgets the session', async () => {
    const signedIn = await cli(['profiles', 'check', 'acme']);
    expect(signedIn.code, signedIn.stderr).toBe(0);
    expect(signedIn.stdout).toMatch(/health:\s+signed_in/);
    accepted = 'another-session';
    const signedOut = await cli(['profiles', 'check', 'acme', '--json']);
    expect(signedOut.code).toBe(1);
    expect(signedOut.json()).toMatchObject({ name: 'acme', health: 'signed_out', health_detail: expect.stringContaining('does not show the text "Signed in as"') });
    const events = await daemon.api('GET', '/v1/events?limit=50');
    expect(JSON.stringify(events.body)).not.toContain(SESSION);
    const noCheck = await cli(['profiles', 'check', 'from-stdin']);
    expect(noCheck.code).toBe(1);
    expect(noCheck.stderr).toContain('(profile_has_no_check, check)');
  }, 120_000);

  it('updates its check, expiry and name, and says when nothing was asked', async () => {
    const byRole = await cli(['profiles', 'update', 'acme', '--check-url', `${siteUrl}/account`, '--check-role', 'link', '--check-name', 'Sign out', '--never-expires', '--name', 'acme-portal', '--json']);
    expect(byRole.code, byRole.stderr).toBe(0);
    expect(byRole.json()).toMatchObject({ name: 'acme-portal', check: { role: 'link', name: 'Sign out', text: null }, expires_at: null });
    const cleared = await cli(['profiles', 'update', 'acme-portal', '--clear-check', '--json']);
    expect(cleared.json()).toMatchObject({ check: null });
    const nothing = await cli(['profiles', 'update', 'acme-portal']);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('nothing to change');
    const badExpiry = await cli(['profiles', 'update', 'acme-portal', '--expires', 'soon']);
    expect(badExpiry.code).toBe(2);
    expect(badExpiry.stderr).toContain('how long from now (12h, 30d)');
  });

  it('prints each command\'s answer as JSON with --json, never a cookie or a stored value', async () => {
    const created = await cli(['profiles', 'create', 'json-shape', '--json']);
    expect(created.code, created.stderr).toBe(0);
    const profile = created.json();
    expect(profile).toMatchObject({ object: 'profile', name: 'json-shape', has_state: false });
    expect((await cli(['profiles', 'get', 'json-shape', '--json'])).json()).toMatchObject({ id: profile.id, name: 'json-shape' });
    expect((await cli(['profiles', 'list', '--json'])).json()).toMatchObject({ object: 'list', data: expect.arrayContaining([expect.objectContaining({ id: profile.id })]) });
    expect((await cli(['profiles', 'runs', 'json-shape', '--json'])).json()).toMatchObject({ object: 'list', data: [] });
    const deleted = await cli(['profiles', 'delete', 'json-shape', '--json']);
    expect(deleted.json()).toMatchObject({ id: profile.id, deleted: true });
    const list = await cli(['profiles', 'list', '--json']);
    expect(list.stdout).not.toMatch(new RegExp(`${SESSION}|${TOKEN}`));
  });

  it('lists the runs that used it, and deletes it by name', async () => {
    const runs = await cli(['profiles', 'runs', 'acme-portal']);
    expect(runs.code, runs.stderr).toBe(0);
    expect(runs.stdout + runs.stderr).toContain('no run has used it');
    const deleted = await cli(['profiles', 'delete', 'acme-portal']);
    expect(deleted.stdout).toMatch(/^deleted profile prf_\w+ and its saved login\n$/);
    expect((await cli(['profiles', 'get', 'acme-portal'])).stderr).toBe('error: no profile named acme-portal\n');
  });
});
