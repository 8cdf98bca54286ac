/**
 * A saved login in the sandbox's browser (docs/api.md, Profiles), on both drivers: its state loaded before the first
 * action, read back with what the run added, checked by its page, and its values masked by the sandbox itself in
 * results and in the recording's trace. The site is served inside the sandbox; its pages read the cookie and the
 * storage the way a site's own script would.
 */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DockerDriver } from '../../src/sandbox/docker/docker-driver.js';
import type { Sandbox } from '../../src/sandbox/driver.js';
import type { BrowserState } from '../../src/sandbox/protocol.js';
import { closedPort } from '../fixtures/closed-port.js';
import { dockerAvailability } from '../fixtures/docker.js';
import { zipEntries } from '../fixtures/recording-files.js';
import { TEST_DRIVERS } from '../fixtures/sandbox-drivers.js';
import { serveInSandbox, type SandboxSite } from '../fixtures/sandbox-site.js';
import { tempDir } from '../fixtures/temp-dir.js';

const SID = 'sid-0f6a1c9e5b7d4e2a8c3b';
const TOKEN = 'tok-7d1e9b2c5a8f4e6d0b3a';
const FRESH = 'fresh-4c8e2a6b0d9f1e7c5a3b';

const PAGES = {
  '/member': `<!doctype html><title>Member</title><p id="s">checking</p><p id="t"></p><script>
const signedIn = document.cookie.includes('sid=${SID}') && localStorage.getItem('token') === '${TOKEN}';
document.getElementById('s').textContent = signedIn ? 'Signed in as Ada' : 'Please sign in';
document.getElementById('t').textContent = 'Your token: ' + localStorage.getItem('token');
</script>`,
  '/signin': `<!doctype html><title>Signed in</title><p id="s">working</p><script>
document.cookie = 'fresh=${FRESH}; path=/; max-age=3600';
localStorage.setItem('fresh', '${FRESH}');
document.getElementById('s').textContent = 'Welcome back';
</script>`,
};

const signal = () => AbortSignal.timeout(60_000);

function stateFor(origin: string): BrowserState {
  return {
    cookies: [{ name: 'sid', value: SID, domain: '127.0.0.1', path: '/', expires: -1, httpOnly: false, secure: false, sameSite: 'Lax' }],
    origins: [{ origin, localStorage: [{ name: 'token', value: TOKEN }] }],
  };
}

describe.each(TEST_DRIVERS)('a saved login on the $name driver', (driver) => {
  let stop: () => Promise<void>;
  let create: (runId: string) => Promise<Sandbox>;
  let sandbox: Sandbox;
  let site: SandboxSite;

  beforeAll(async () => {
    if (!driver.available) return;
    const started = await driver.start();
    stop = started.close;
    create = started.create;
    sandbox = await create(`run_saved_login_${driver.name}`);
    site = await serveInSandbox(sandbox, PAGES, signal());
  }, 120_000);

  afterAll(async () => {
    await stop?.();
  });

  describe.skipIf(!driver.available)('in the browser', () => {
    it('loads the state before the first action: the first page is signed in, and shows the values masked', async () => {
      const loaded = await sandbox.useLogin({ name: 'acme', state: stateFor(site.origin) }, signal());
      expect(loaded).toEqual({ launched: true });
      await sandbox.startRecording(signal());
      const page = await sandbox.browser({ action: 'navigate', url: `${site.origin}/member` }, signal());
      const text = (await sandbox.browser({ action: 'read_text' }, signal())).text;
      expect(page.ok).toBe(true);
      expect(text).toContain('Signed in as Ada');
      expect(text).toContain('Your token: [login:acme]');
      expect(text).not.toContain(TOKEN);
    });

    it('reads back what the browser holds, with what a sign-in during the run set, and masks that from then on', async () => {
      const signedIn = await sandbox.browser({ action: 'navigate', url: `${site.origin}/signin` }, signal());
      expect(signedIn.ok).toBe(true);
      const state = await sandbox.readLogin(signal());
      expect(state.cookies.map((c) => `${c.name}=${c.value}`).sort()).toEqual([`fresh=${FRESH}`, `sid=${SID}`]);
      expect(state.origins).toEqual([{ origin: site.origin, localStorage: expect.arrayContaining([{ name: 'token', value: TOKEN }, { name: 'fresh', value: FRESH }]) }]);
      const shown = await sandbox.browser({ action: 'navigate', url: `${site.origin}/member?echo=${FRESH}` }, signal());
      expect(shown.url).toBe(`${site.origin}/member?echo=[login:acme]`);
    });

    it("keeps the login's values out of the recording's trace, loaded and gained alike", async () => {
      const files = await sandbox.finishRecording([], signal());
      expect(files).not.toBeNull();
      const entries = await zipEntries(files!.trace);
      const all = Buffer.concat([...entries].filter(([name]) => !name.startsWith('screencast/')).map(([, body]) => body)).toString('latin1');
      expect(all).toContain('[login:acme]');
      for (const value of [SID, TOKEN, FRESH]) expect(all).not.toContain(value);
    });

    it('checks the login by its page: signed in where it shows, signed out where it does not, unreachable where nothing loads', async () => {
      expect(await sandbox.checkLogin({ url: `${site.origin}/member`, text: 'Signed in as Ada' }, signal())).toMatchObject({ outcome: 'signed_in', url: `${site.origin}/member` });
      const other = await create(`run_saved_login_check_${driver.name}`);
      try {
        const otherSite = await serveInSandbox(other, PAGES, signal());
        expect(await other.checkLogin({ url: `${otherSite.origin}/member`, text: 'Signed in as Ada' }, signal())).toMatchObject({ outcome: 'signed_out' });
        expect(await other.checkLogin({ url: `${otherSite.origin}/member`, role: 'paragraph' }, signal())).toMatchObject({ outcome: 'signed_in' });
        expect(await other.checkLogin({ url: `http://127.0.0.1:${await closedPort()}/member`, text: 'Signed in' }, signal())).toMatchObject({ outcome: 'unreachable' });
      } finally {
        await other.destroy();
      }
    });

    it('reads an empty state from a browser never launched', async () => {
      const fresh = await create(`run_saved_login_empty_${driver.name}`);
      try {
        expect(await fresh.readLogin(signal())).toEqual({ cookies: [], origins: [] });
      } finally {
        await fresh.destroy();
      }
    });
  });
});

const docker = await dockerAvailability();

describe.skipIf(!docker.available)('a saved login in a pooled docker sandbox', () => {
  it('goes into the browser the pool launched ahead, without a second launch', async () => {
    const home = tempDir('errand-docker-login-');
    const driver = await DockerDriver.start({
      docker: docker.docker,
      image: docker.image,
      home: home.path,
      logger: pino({ level: 'silent' }),
      limits: { memoryMb: 1024, cpus: 1, pidsLimit: 256 },
      warmPoolSize: 1,
    });
    try {
      for (let i = 0; i < 600 && driver.warmCount < 1; i++) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(driver.warmCount).toBe(1);
      const sandbox = await driver.create({ runId: 'run_saved_login_pooled', env: {}, signal: signal() });
      const site = await serveInSandbox(sandbox, PAGES, signal());
      expect(await sandbox.useLogin({ name: 'acme', state: stateFor(site.origin) }, signal())).toEqual({ launched: false });
      await sandbox.browser({ action: 'navigate', url: `${site.origin}/member` }, signal());
      expect((await sandbox.browser({ action: 'read_text' }, signal())).text).toContain('Signed in as Ada');
      await sandbox.destroy();
    } finally {
      await driver.close();
      home.remove();
    }
  }, 180_000);
});
