/**
 * A recording of every browser run (issue 22, item 1), on both sandbox drivers: a scripted agent logs in to a page
 * served inside its own sandbox, typing a secret by reference into a plain text field. The run's envelope links a
 * Playwright trace that shows the actions taken (in its files, and in the trace viewer playwright-core ships) and
 * holds the secret in none of its files, in none of the forms the secret mask knows, and a WebM video that ffprobe reads; the links are signed, and a run, a job or the installation
 * that turns recording off has neither.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTraceViewer } from '../../cli/trace-viewer.js';
import { secretForms } from '../../src/connections/secret-forms.js';
import { dockerAvailability } from '../fixtures/docker.js';
import { probeVideo, traceEvents, zipEntries } from '../fixtures/recording-files.js';
import { tempDir } from '../fixtures/temp-dir.js';
import { toolUse } from '../fixtures/scripted-anthropic.js';
import { createRun, startEngine, waitForRun, type EngineHarness } from './harness.js';

const docker = await dockerAvailability();

/** A password with characters that JSON, URLs and HTML each encode differently. */
const PASSWORD = 'Rec0rd-pw_93kQz!x7&+/=';
const PAGE_PORT = 8000;
const LOGIN_PAGE = `<!doctype html><title>Shop login</title>
<body style="font-family: sans-serif; font-size: 24px"><h1>Log in</h1>
<form action="/welcome.html" method="get"><input id="user" name="user"><input id="token" name="token" type="text" style="width: 600px">
<button>Log in</button></form></body>`;
const WELCOME_PAGE = '<!doctype html><title>Welcome</title><body><h1>Welcome back</h1><p id="done">Logged in</p></body>';
const SERVE =
  `mkdir -p site && cat > site/login.html <<'EOF'\n${LOGIN_PAGE}\nEOF\ncat > site/welcome.html <<'EOF'\n${WELCOME_PAGE}\nEOF\n` +
  `cd site && nohup python3 -m http.server ${PAGE_PORT} --bind 127.0.0.1 >/dev/null 2>&1 &\n` +
  `for i in $(seq 100); do (echo > /dev/tcp/127.0.0.1/${PAGE_PORT}) 2>/dev/null && echo serving && break; sleep 0.1; done`;

const loginScript = () => [
  toolUse('run_code', { language: 'bash', code: SERVE }),
  toolUse('browser', { action: 'navigate', url: `http://127.0.0.1:${PAGE_PORT}/login.html` }),
  toolUse('browser', { action: 'type', selector: '#user', text: 'alice' }),
  toolUse('browser', { action: 'type', selector: '#token', text: '{{secret:shop}}' }),
  toolUse('browser', { action: 'screenshot' }),
  toolUse('browser', { action: 'click', selector: 'button' }),
  toolUse('browser', { action: 'read_text' }),
  toolUse('finish', { result: { logged_in: true }, confidence: 'high', matched_text: 'Logged in' }),
];

/** A short browser run: serve the page, open it, finish. */
const browseScript = () => [
  toolUse('run_code', { language: 'bash', code: SERVE }),
  toolUse('browser', { action: 'navigate', url: `http://127.0.0.1:${PAGE_PORT}/login.html` }),
  toolUse('finish', { result: { ok: true }, confidence: 'high' }),
];

/** What the tests of one driver share: a daemon on that driver, and the organisation whose connection holds the password. */
function recordingScenarios(driver: 'local' | 'docker', env: Record<string, string>): void {
  let h: EngineHarness;
  let key: string;
  let run: any;

  beforeAll(async () => {
    h = await startEngine({ env });
    key = h.daemon.createOrgWithKey(`recording-${driver}`).key;
    const made = await h.daemon.api('POST', '/v1/connections', { name: 'shop', type: 'token', secret: PASSWORD }, { key });
    expect(made.status).toBe(201);
    h.model.script(loginScript());
    run = await waitForRun(h.daemon, await createRun(h.daemon, { prompt: 'Log in as alice with {{secret:shop}}' }, key), undefined, 90_000, key);
  }, 180_000);

  afterAll(async () => {
    await h?.close();
  });

  it('links a trace and a video of the run in its evidence, signed like its screenshot', async () => {
    expect(run.status, JSON.stringify(run)).toBe('succeeded');
    for (const link of [run.evidence.recording_url, run.evidence.trace_url]) {
      const url = new URL(link);
      expect(url.origin).toBe(h.daemon.url);
      expect(url.pathname).toMatch(/^\/v1\/artifacts\/art_\w+$/);
      expect(url.searchParams.get('sig')).toBeTruthy();
      expect(Number(url.searchParams.get('expires'))).toBeGreaterThan(Date.now() / 1000);
    }
    const video = await fetch(run.evidence.recording_url);
    expect(video.status).toBe(200);
    expect(video.headers.get('content-type')).toBe('video/webm');
    const trace = await fetch(run.evidence.trace_url);
    expect(trace.status).toBe(200);
    expect(trace.headers.get('content-type')).toBe('application/zip');
    expect(trace.headers.get('content-disposition')).toBe(`attachment; filename="${run.task_id}-trace.zip"`);
  });

  it('refuses a tampered link, and hides the run and its links from another organisation', async () => {
    const tampered = new URL(run.evidence.trace_url);
    tampered.searchParams.set('sig', `${tampered.searchParams.get('sig')!.slice(0, -2)}AA`);
    expect((await fetch(tampered)).status).toBe(403);
    const moved = new URL(run.evidence.recording_url);
    moved.pathname = new URL(run.evidence.trace_url).pathname;
    expect((await fetch(moved)).status).toBe(403);
    const other = h.daemon.createOrgWithKey(`stranger-${driver}`).key;
    expect((await h.daemon.api('GET', `/v1/runs/${run.task_id}`, undefined, { key: other })).status).toBe(404);
  });

  it('keeps a trace of the actions taken, its DOM snapshots, network and console', async () => {
    const files = await zipEntries(Buffer.from(await (await fetch(run.evidence.trace_url)).arrayBuffer()));
    const events = traceEvents(files);
    const calls = events.filter((e) => e.type === 'before').map((e) => `${e.class}.${e.method}`);
    expect(calls).toEqual(expect.arrayContaining(['Frame.goto', 'Frame.fill', 'Frame.click', 'Page.screenshot']));
    const gotos = events.filter((e) => e.type === 'before' && e.method === 'goto').map((e) => e.params.url);
    expect(gotos).toContain(`http://127.0.0.1:${PAGE_PORT}/login.html`);
    expect(events.some((e) => e.type === 'frame-snapshot')).toBe(true);
    expect(events.filter((e) => e.type === 'screencast-frame').length).toBeGreaterThan(0);
    const network = [...files].filter(([name]) => name.endsWith('.network')).map(([, body]) => body.toString('utf8')).join('\n');
    expect(network).toContain('/welcome.html?user=alice&token=');
  });

  it('holds the secret in no file of the trace, in any form; the field it was typed into is masked', async () => {
    const files = await zipEntries(Buffer.from(await (await fetch(run.evidence.trace_url)).arrayBuffer()));
    const forms = secretForms(PASSWORD);
    for (const [name, body] of files) {
      for (const text of [body.toString('utf8'), body.toString('latin1')]) {
        for (const form of forms) expect(text.includes(form), `${name} holds the secret as ${JSON.stringify(form)}`).toBe(false);
      }
    }
    const events = traceEvents(files);
    const fill = events.find((e) => e.type === 'before' && e.method === 'fill' && e.params.selector === '#token >> nth=0');
    expect(fill?.params.value).toBe('[secret:shop]');
    // The text field shows discs, as a password field would, in the frames and screenshots after it was filled.
    const after = JSON.stringify(events.filter((e) => e.type === 'frame-snapshot' && e.snapshot.callId === fill!.callId));
    expect(after).toContain('-webkit-text-security: disc');
  });

  it('opens in the trace viewer playwright-core ships, which lists the actions with the secret masked', async () => {
    const dir = tempDir('errand-trace-view-');
    writeFileSync(join(dir.path, 'trace.zip'), Buffer.from(await (await fetch(run.evidence.trace_url)).arrayBuffer()));
    const viewer = await startTraceViewer(join(dir.path, 'trace.zip'));
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
    try {
      const page = await browser.newPage();
      await page.goto(viewer.url);
      await page.getByText('Fill "[secret:shop]"').first().waitFor({ timeout: 30_000 });
      const listed = await page.locator('body').innerText();
      expect(listed).toContain('Navigate');
      expect(listed).toContain('Fill "alice"');
      expect(listed).toContain('Click');
      expect(listed).not.toContain(PASSWORD);
    } finally {
      await browser.close();
      viewer.stop();
      await viewer.stopped;
      dir.remove();
    }
  }, 90_000);

  it('makes a video a browser plays, of the frames the trace took', async () => {
    const video = Buffer.from(await (await fetch(run.evidence.recording_url)).arrayBuffer());
    const probe = await probeVideo(video);
    expect(probe.format).toContain('webm');
    expect(probe.codec).toBe('vp8');
    // The frames' size: the viewport's shape (1280×800), fitted in 800×800 by Playwright's screencast.
    expect(probe.width / probe.height).toBeCloseTo(1280 / 800, 1);
    expect(probe.width).toBeGreaterThanOrEqual(800);
    expect(probe.frames).toBeGreaterThanOrEqual(1);
    expect(probe.durationS).toBeGreaterThan(0);
  });

  it('records nothing for a run, or a job\'s runs, that turn recording off', async () => {
    h.model.script(browseScript());
    const off = await waitForRun(h.daemon, await createRun(h.daemon, { prompt: 'look', recording: false }, key), undefined, 60_000, key);
    const job = await h.daemon.api('POST', '/v1/jobs', { project_id: (await h.daemon.api('GET', '/v1/projects', undefined, { key })).body.data[0].id, name: 'quiet', prompt: 'look', recording: false }, { key });
    expect(job.body.recording).toBe(false);
    h.model.script(browseScript());
    const accepted = await h.daemon.api('POST', `/v1/jobs/${job.body.id}/runs`, {}, { key });
    const jobRun = await waitForRun(h.daemon, accepted.body.task_id, undefined, 60_000, key);
    for (const quiet of [off, jobRun]) {
      expect(quiet.status, JSON.stringify(quiet)).toBe('succeeded');
      expect(quiet.evidence).toMatchObject({ recording_url: null, trace_url: null });
      expect(quiet.evidence.screenshot_url).not.toBeNull();
      expect(artifactFiles(h, quiet).every((name) => name.endsWith('.png'))).toBe(true);
    }
  }, 150_000);
}

function artifactFiles(h: EngineHarness, run: any): string[] {
  const orgDir = readdirSync(join(h.daemon.home, 'artifacts'));
  return orgDir.flatMap((org) => {
    try {
      return readdirSync(join(h.daemon.home, 'artifacts', org, run.task_id));
    } catch {
      return [];
    }
  });
}

describe('recording on the local driver', () => {
  recordingScenarios('local', { ERRAND_SANDBOX_DRIVER: 'local' });
});

describe.skipIf(!docker.available)('recording on the docker driver', () => {
  recordingScenarios('docker', { ERRAND_SANDBOX_DRIVER: 'docker', ERRAND_SANDBOX_IMAGE: docker.image, ERRAND_SANDBOX_WARM_POOL_SIZE: '1' });
});

describe('an installation with recording.enabled off', () => {
  let h: EngineHarness;
  afterAll(async () => {
    await h?.close();
  });

  it('records no run, whatever the run asks', async () => {
    h = await startEngine({ env: { ERRAND_RECORDING_ENABLED: 'false' } });
    h.model.script(browseScript());
    const run = await waitForRun(h.daemon, await createRun(h.daemon, { prompt: 'look', recording: true }), undefined, 60_000);
    expect(run.status, JSON.stringify(run)).toBe('succeeded');
    expect(run.evidence).toMatchObject({ recording_url: null, trace_url: null });
    expect(run.evidence.screenshot_url).not.toBeNull();
    expect(artifactFiles(h, run).every((name) => name.endsWith('.png'))).toBe(true);
  }, 90_000);
});
