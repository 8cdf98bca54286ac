/**
 * The live view and takeover end to end (issue 22, items 2 and 3): the compiled daemon, a scripted agent on a
 * test site, and a person in headless Chromium (Debian's, through playwright-core) on the live view. The person
 * sees a frame of the sandbox page, takes control (the agent pauses: no model call while held), clicks a button
 * and types on the sandbox page through the shown frame, and hands back with a note, which the agent is told and
 * the run keeps as a step. One controller at a time; tampered, other-run, revoked links and another
 * organisation's key refused. Both sandbox drivers.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dockerAvailability } from '../fixtures/docker.js';
import { hold, reply, text, toolResults, toolUse, type AnthropicRequest, type AnthropicTurn } from '../fixtures/scripted-anthropic.js';
import type { TestDaemon } from '../fixtures/test-daemon.js';
import { createRun, servePages, startEngine, stepsOf, until, waitForRun, type EngineHarness } from '../engine/harness.js';

const docker = await dockerAvailability(process.env.ERRAND_SANDBOX_IMAGE ?? 'errand-sandbox:latest');

const THOUGHT = 'I open the test page and look at its button.';
const NOTE = 'Pressed the button and typed a greeting';
/** A page whose button and field say, in the page's text, what reached them. */
const SITE_PAGE = `<!doctype html><title>Live test site</title>
<body style="margin:0;font-family:sans-serif;background:#fff">
<button id="b" style="position:absolute;left:0;top:0;width:400px;height:200px;font-size:40px">Press me</button>
<input id="i" style="position:absolute;left:0;top:300px;width:400px;height:60px;font-size:30px">
<p id="out" style="position:absolute;left:0;top:420px;font-size:30px">Nothing yet</p>
<script>
  let clicks = 0;
  document.getElementById('b').addEventListener('click', () => {
    clicks += 1;
    document.getElementById('out').textContent = 'Clicked ' + clicks;
    fetch('/clicked', { method: 'POST' }).catch(() => {});
  });
  document.getElementById('i').addEventListener('input', (e) => {
    document.getElementById('out').textContent = 'Clicked ' + clicks + ', typed: ' + e.target.value;
  });
</script></body>`;

interface Site {
  /** The page's address as the sandbox's browser reaches it. */
  url: string;
  /** Turns before the agent navigates (starting the site inside a Docker sandbox). */
  before: AnthropicTurn[];
  /** Clicks the site's server saw, where the test can see its server (local driver). */
  clicks: (() => number) | null;
}

let browser: Browser;

beforeAll(async () => {
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
});

afterAll(async () => {
  await browser?.close();
});

describe('the live view on the local driver', () => {
  let clicks = 0;
  let pages: Awaited<ReturnType<typeof servePages>>;
  let h: EngineHarness;

  beforeAll(async () => {
    pages = await servePages((req, res) => {
      if (req.url === '/button') res.writeHead(200, { 'content-type': 'text/html' }).end(SITE_PAGE);
      else if (req.url === '/clicked' && req.method === 'POST') {
        clicks += 1;
        res.writeHead(204).end();
      } else res.writeHead(404).end();
    });
    h = await startEngine();
  });

  afterAll(async () => {
    await h?.close();
    await pages?.close();
  });

  liveViewSpecification(() => ({ h, site: { url: `${pages.url}/button`, before: [], clicks: () => clicks } }));
});

describe.skipIf(!docker.available)('the live view on the docker driver', () => {
  let h: EngineHarness;
  const PORT = 8000;

  beforeAll(async () => {
    h = await startEngine({ env: { ERRAND_SANDBOX_DRIVER: 'docker', ERRAND_SANDBOX_IMAGE: docker.image, ERRAND_SANDBOX_WARM_POOL_SIZE: '1' } });
  });

  afterAll(async () => {
    await h?.close();
  });

  // A Docker sandbox cannot reach the host's ports: the site is served inside it.
  const serve =
    `mkdir -p site && cat > site/button.html <<'EOF'\n${SITE_PAGE}\nEOF\n` +
    `cd site && nohup python3 -m http.server ${PORT} --bind 127.0.0.1 >/dev/null 2>&1 &\n` +
    `for i in $(seq 100); do (echo > /dev/tcp/127.0.0.1/${PORT}) 2>/dev/null && echo serving && break; sleep 0.1; done`;
  liveViewSpecification(() => ({
    h,
    site: { url: `http://127.0.0.1:${PORT}/button.html`, before: [toolUse('run_code', { language: 'bash', code: serve })], clicks: null },
  }));
});

function liveViewSpecification(setup: () => { h: EngineHarness; site: Site }): void {
  let h: EngineHarness;
  let d: TestDaemon;
  let site: Site;
  let runId: string;
  let liveUrl: URL;
  let token: string;
  let viewer: Page;
  const heldRead = hold(reply([text('Reading the page again.'), toolUse('browser', { action: 'read_text' })]));
  const heldFinish = hold(toolUse('finish', { result: { done: true }, confidence: 'high', matched_text: null, evidence_screenshot: null }));
  let callsWhenTaken = 0;
  let afterHandBack: AnthropicRequest;

  const withToken = (path: string, method = 'GET', body?: unknown, t = token) =>
    d.api(method, path, body, { key: null, headers: { authorization: `Bearer ${t}` } });

  beforeAll(async () => {
    ({ h, site } = setup());
    d = h.daemon;
    h.model.script([...site.before, reply([text(THOUGHT), toolUse('browser', { action: 'navigate', url: site.url })]), heldRead, heldFinish]);
    runId = await createRun(d, { prompt: 'Press the button on the test page.' });
    await heldRead.arrived;
    const run = (await d.api('GET', `/v1/runs/${runId}`)).body;
    liveUrl = new URL(run.live_url);
    token = liveUrl.searchParams.get('token')!;
    viewer = await browser.newPage({ viewport: { width: 1400, height: 1200 } });
  }, 120_000);

  afterAll(async () => {
    heldRead.release();
    heldFinish.release();
    await viewer?.close();
  });

  it('gives a running run a signed live_url to a page of this daemon, which a live link may poll the run with', async () => {
    expect(liveUrl.origin).toBe(d.url);
    expect(liveUrl.pathname).toBe(`/v1/runs/${runId}/live`);
    expect(token).toMatch(/^elv_org_\w+\.run_\w+\.\d+\.\d+\.[\w-]+$/);
    const polled = await withToken(`/v1/runs/${runId}`);
    expect(polled.status).toBe(200);
    expect(polled.body).toMatchObject({ task_id: runId, status: 'running' });
    expect(polled.body.live_url).toMatch(/^http/);
    const listed = (await d.api('GET', '/v1/runs')).body.data.find((r: { task_id: string }) => r.task_id === runId);
    expect(listed.live_url).toBeNull();
  });

  it('grants nothing but its run: other routes, other runs and tampered tokens are refused', async () => {
    expect((await withToken(`/v1/runs/${runId}/steps`)).status).toBe(401);
    expect((await withToken('/v1/runs')).status).toBe(401);
    expect((await withToken(`/v1/runs/${runId}/live/revoke`, 'POST', {})).status).toBe(401);
    const otherRun = await withToken('/v1/runs/run_00000000000000000000000000/live/state');
    expect(otherRun.status).toBe(403);
    expect(otherRun.body.error).toMatchObject({ type: 'invalid_request_error', code: 'live_link_other_run' });
    const tampered = token.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    const refused = await withToken(`/v1/runs/${runId}/live/state`, 'GET', undefined, tampered);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'invalid_link_signature' });
    const later = token.replace(/\.(\d+)\.([\w-]+)$/, (_m, expires: string, sig: string) => `.${Number(expires) + 3600}.${sig}`);
    expect((await withToken(`/v1/runs/${runId}/live/state`, 'GET', undefined, later)).body.error.code).toBe('invalid_link_signature');
  });

  it("answers another organisation's key with 404", async () => {
    const other = d.createOrgWithKey(`other-${runId.slice(-6)}`);
    const res = await d.api('GET', `/v1/runs/${runId}/live/state`, undefined, { key: other.key });
    expect(res.status).toBe(404);
    expect((await d.api('POST', `/v1/runs/${runId}/live/control`, {}, { key: other.key })).status).toBe(404);
  });

  it('answers a tampered link with an HTML page saying so, under the connect pages’ headers', async () => {
    const bad = new URL(liveUrl);
    bad.searchParams.set('token', token.slice(0, -2));
    const response = await fetch(bad);
    expect(response.status).toBe(403);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toContain('This live link is not valid');
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('shows a frame of the sandbox page, the step and the thought, with a strict policy and the token out of the address bar', async () => {
    const response = await viewer.goto(liveUrl.toString());
    expect(response!.status()).toBe(200);
    const headers = response!.headers();
    expect(headers['content-security-policy']).toBe(
      "default-src 'none'; script-src 'self'; connect-src 'self'; img-src data:; style-src 'unsafe-inline'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
    );
    expect(headers['referrer-policy']).toBe('no-referrer');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['cache-control']).toBe('no-store');
    await viewer.waitForFunction(() => (document.getElementById('screen') as HTMLImageElement).src.startsWith('data:image/jpeg;base64,'));
    const size = await viewer.evaluate(() => {
      const img = document.getElementById('screen') as HTMLImageElement;
      return { width: img.naturalWidth, height: img.naturalHeight };
    });
    expect(size.width).toBeGreaterThan(0);
    await viewer.waitForFunction((thought) => document.getElementById('thought')!.textContent === thought, THOUGHT);
    expect(await viewer.evaluate(() => location.search)).toBe('');
  });

  it('lets one person take control, and refuses a second controller', async () => {
    callsWhenTaken = h.model.requests.length;
    await viewer.click('#take');
    await viewer.waitForSelector('#hand-back-form', { state: 'visible' });
    const second = await d.api('POST', `/v1/runs/${runId}/live/control`, {});
    expect(second.status).toBe(409);
    expect(second.body.error).toMatchObject({ type: 'conflict_error', code: 'control_held' });
    const notMine = await d.api('POST', `/v1/runs/${runId}/live/input`, { control_id: 'ctl_guess', input: { type: 'text', text: 'x' } });
    expect(notMine.status).toBe(409);
    expect(notMine.body.error.code).toBe('not_in_control');
  });

  it("sends the person's click and typing to the sandbox page while the agent waits", async () => {
    // The agent gets its next turn now, and stops at the gate before its tool call.
    heldRead.release();
    await until('the agent to pause', async () => ((await d.api('GET', `/v1/runs/${runId}`)).body.progress.last_action ?? '').startsWith('paused'));
    await clickOnSandbox(viewer, 200, 100);
    if (site.clicks !== null) await until('the site to see the click', () => site.clicks!() === 1);
    await clickOnSandbox(viewer, 200, 330);
    await viewer.keyboard.type('hi there');
    const state = await d.api('GET', `/v1/runs/${runId}/live/state`);
    expect(state.body.control).toMatchObject({ held: true, by: 'live link' });
    expect(h.model.requests.length).toBe(callsWhenTaken);
  });

  it('hands back with a note: the agent goes on, is told what was done, and the run keeps a step', async () => {
    // What the agent waits for is HUMAN's part (request_human); the page is checked against its contract: it shows
    // a takeover request's question, and handing back answers it with the request's id and the note.
    const answered = waitingFor(viewer, { request_id: 'hr_takeover', kind: 'takeover', question: 'Please press the button for me' });
    await viewer.waitForFunction(() => document.getElementById('waiting-question')!.textContent === 'Please press the button for me');
    await viewer.fill('#note', NOTE);
    await viewer.click('#hand-back');
    // The page renews its token from the state it polls: a fresh link of the same run.
    expect(await answered).toEqual({ authorization: expect.stringMatching(new RegExp(`^Bearer elv_\\w+\\.${runId}\\.`)), body: { request_id: 'hr_takeover', note: NOTE } });
    afterHandBack = await heldFinish.arrived;
    const [read] = toolResults(afterHandBack);
    expect(read!.text).toContain('Clicked 1, typed: hi there');
    const told = JSON.stringify(afterHandBack.body.messages.at(-1));
    expect(told).toContain('A person (live link) took control of the browser');
    expect(told).toContain(NOTE);
    const steps = await stepsOf(d, runId);
    const takeover = steps.find((s) => s.kind === 'person');
    expect(takeover).toMatchObject({ name: 'takeover', output: NOTE, is_error: false, input: { by: 'live link', revoked: false } });
    expect(Date.parse(takeover.input.ended_at)).toBeGreaterThanOrEqual(Date.parse(takeover.input.started_at));
    expect(takeover.duration_ms).toBe(Date.parse(takeover.input.ended_at) - Date.parse(takeover.input.started_at));
  });

  it('shows a question the agent asks and answers it through POST /v1/runs/{id}/human with the live token', async () => {
    const page = await browser.newPage();
    try {
      await page.goto((await d.api('GET', `/v1/runs/${runId}`)).body.live_url);
      const answered = waitingFor(page, { request_id: 'hr_answer', kind: 'answer', question: 'What is the one-time code?' });
      await page.waitForSelector('#answer-form', { state: 'visible' });
      expect(await page.textContent('#waiting-kind')).toBe('answer');
      await page.fill('#answer', '123456');
      await page.click('#send-answer');
      const { authorization, body } = await answered;
      expect(authorization).toMatch(/^Bearer elv_/);
      expect(body).toEqual({ request_id: 'hr_answer', answer: '123456' });
    } finally {
      await page.close();
    }
  });

  it("revokes the run's links through the API; a fresh link works", async () => {
    const revoked = await d.api('POST', `/v1/runs/${runId}/live/revoke`, {});
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ object: 'live_revocation', run_id: runId, control_released: false });
    const old = await withToken(`/v1/runs/${runId}/live/state`);
    expect(old.status).toBe(403);
    expect(old.body.error.code).toBe('live_link_revoked');
    const fresh = new URL((await d.api('GET', `/v1/runs/${runId}`)).body.live_url).searchParams.get('token')!;
    expect((await withToken(`/v1/runs/${runId}/live/state`, 'GET', undefined, fresh)).status).toBe(200);
    token = fresh;
    await viewer.waitForFunction(() => document.getElementById('status')!.textContent!.startsWith('This live link was revoked'));
  });

  it('ends with the run: no live_url, and the live view says the run has none', async () => {
    heldFinish.release();
    const run = await waitForRun(d, runId);
    expect(run.status).toBe('succeeded');
    expect((await d.api('GET', `/v1/runs/${runId}`)).body.live_url).toBeNull();
    const frames = await withToken(`/v1/runs/${runId}/live/frames`);
    expect(frames.status).toBe(409);
    expect(frames.body.error.code).toBe('live_view_unavailable');
  });
}

/**
 * Makes the page see the run wait for `request` (HUMAN's `waiting_for`, which this branch's daemon does not set yet):
 * the state it polls gets it; answers what the page then posts to /human, which is answered as the contract says.
 */
async function waitingFor(viewer: Page, request: { request_id: string; kind: string; question: string }): Promise<{ authorization: string | undefined; body: unknown }> {
  const asked = new Date().toISOString();
  const waiting = { ...request, asked_at: asked, expires_at: asked, live_url: null };
  await viewer.route('**/live/state', async (route) => {
    const response = await route.fetch();
    const state = await response.json();
    await route.fulfill({ response, json: { ...state, run: { ...state.run, waiting_for: waiting } } });
  });
  return new Promise((resolve) => {
    void viewer.route('**/human', async (route) => {
      const sent = route.request();
      resolve({ authorization: sent.headers().authorization, body: sent.postDataJSON() });
      await viewer.unroute('**/live/state');
      await route.fulfill({ status: 200, json: {} });
    });
  });
}

/** Clicks the shown frame where the sandbox page's (x, y) is, in its CSS pixels. */
async function clickOnSandbox(viewer: Page, x: number, y: number): Promise<void> {
  const box = await viewer.evaluate(() => {
    const rect = document.getElementById('screen')!.getBoundingClientRect();
    return { left: rect.left, top: rect.top, width: rect.width, height: rect.height };
  });
  await viewer.mouse.click(box.left + (x / 1280) * box.width, box.top + (y / 800) * box.height);
}
