/**
 * Saved logins on the docker driver (docs/api.md, Profiles): a run signs in and its profile is saved from the
 * browser inside its container; the next run, in a container of its own (a warm one from the pool), starts signed
 * in with the cookie and the storage, and the agent reads the stored value only masked. A sandbox cannot reach the
 * host's ports, so each run serves the site inside its own container; the site keeps no sessions of its own (its
 * page's script reads the cookie and the storage), so that a second container's copy knows the first one's login.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRun, startEngine, until, waitForRun, type EngineHarness } from '../engine/harness.js';
import { withStore } from '../api/harness.js';
import { dockerAvailability } from '../fixtures/docker.js';
import { toolResults, toolUse, type AnthropicRequest } from '../fixtures/scripted-anthropic.js';

const docker = await dockerAvailability();
const PORT = 8000;
const SID = 'dock-sid-6e1a9c3f7b2d5e8a';
const TOKEN = 'dock-token-2b7e4a9c1f6d3e8b';
const SITE = `http://127.0.0.1:${PORT}`;

const PAGES: Record<string, string> = {
  'signin.html': `<!doctype html><title>Signing in</title><p id="s">working</p><script>
document.cookie = 'sid=${SID}; path=/; max-age=86400';
localStorage.setItem('token', '${TOKEN}');
document.getElementById('s').textContent = 'Welcome, Ada';
</script>`,
  'member.html': `<!doctype html><title>Member</title><p id="s">checking</p><p id="t"></p><script>
const signedIn = document.cookie.includes('sid=${SID}') && localStorage.getItem('token') === '${TOKEN}';
document.getElementById('s').textContent = signedIn ? 'Signed in as Ada' : 'Please sign in';
document.getElementById('t').textContent = 'Your token: ' + localStorage.getItem('token');
</script>`,
};

/**
 * Serves the site from the run's own container, and says so once it answers. The pages go in base64, so that the
 * code the agent sends (which its later requests repeat) does not hold the login's values the test looks for.
 */
const serve =
  'mkdir -p site && cd site && ' +
  Object.entries(PAGES)
    .map(([name, body]) => `echo ${Buffer.from(body).toString('base64')} | base64 -d > ${name}\n`)
    .join('') +
  `nohup python3 -m http.server ${PORT} --bind 127.0.0.1 >/dev/null 2>&1 &\n` +
  `for i in $(seq 100); do (echo > /dev/tcp/127.0.0.1/${PORT}) 2>/dev/null && echo serving && break; sleep 0.1; done`;

const finishWithPage = (request: AnthropicRequest) => toolUse('finish', { result: { page: toolResults(request)[0]?.text.slice(0, 2000) ?? '' }, confidence: 'high' });

describe.skipIf(!docker.available)('saved logins on the docker driver', () => {
  let h: EngineHarness;

  beforeAll(async () => {
    h = await startEngine({ env: { ERRAND_SANDBOX_DRIVER: 'docker', ERRAND_SANDBOX_IMAGE: docker.image, ERRAND_SANDBOX_WARM_POOL_SIZE: '1' } });
  }, 120_000);

  afterAll(async () => {
    await h?.close();
  });

  it('saves the login of a run that signed in, from the browser in its container', async () => {
    h.model.script([
      toolUse('run_code', { language: 'bash', code: serve }),
      toolUse('browser', { action: 'navigate', url: `${SITE}/signin.html` }),
      toolUse('browser', { action: 'wait', text: 'Welcome, Ada' }),
      toolUse('finish', { result: { signed_in: true }, confidence: 'high' }),
    ]);
    const runId = await createRun(h.daemon, { prompt: 'Sign in to the site.', save_profile: 'dock' });
    const done = await waitForRun(h.daemon, runId, undefined, 120_000);
    expect(done.status, JSON.stringify(done)).toBe('succeeded');
    const saved = (await h.daemon.api('GET', '/v1/profiles')).body.data.find((p: any) => p.name === 'dock');
    expect(saved).toMatchObject({ has_state: true, saved_via: 'run', saved_by_run_id: runId, origins: ['127.0.0.1', SITE] });
    const sealed = withStore(h.daemon, (store) => store.profiles.byName(h.daemon.orgId, 'dock')!.state_enc!);
    expect(sealed).not.toContain(SID);
  }, 180_000);

  it('starts the next run, in a container of its own, signed in, and shows the agent the stored value masked', async () => {
    h.model.script([
      toolUse('run_code', { language: 'bash', code: serve }),
      toolUse('browser', { action: 'navigate', url: `${SITE}/member.html` }),
      toolUse('browser', { action: 'wait', text: 'Signed in as' }),
      toolUse('browser', { action: 'read_text' }),
      finishWithPage,
    ]);
    // A warm sandbox, its browser launched ahead: the run's login goes into it without a second launch.
    await until('a warm sandbox', async () => (await h.daemon.api('GET', '/v1/status')).body.sandbox.warm_pool.ready >= 1, 120_000);
    const start = h.model.requests.length;
    const runId = await createRun(h.daemon, { prompt: 'Say who is signed in.', profile: 'dock', profile_mode: 'read' });
    const done = await waitForRun(h.daemon, runId, undefined, 120_000);
    expect(done.status, JSON.stringify(done)).toBe('succeeded');
    expect(done.result.page).toContain('Signed in as Ada');
    expect(done.result.page).toContain('Your token: [login:dock]');
    const told = JSON.stringify(h.model.requests.slice(start).map((r) => r.body));
    expect(told).toContain("The browser starts signed in: it holds the saved login 'dock'");
    expect(told).not.toContain(TOKEN);
    expect(told).not.toContain(SID);
    const loaded = h.daemon.logs().split('\n').filter((line) => line.includes('saved login in the browser') && line.includes(runId));
    expect(loaded).toHaveLength(1);
    expect(JSON.parse(loaded[0]!)).toMatchObject({ profile: 'dock', state: true, warmBrowser: true });
  }, 180_000);
});
