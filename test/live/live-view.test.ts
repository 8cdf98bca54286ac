/**
 * The live view and takeover end to end (issue 22, items 2 and 3): the compiled daemon, a scripted agent on a
 * test site, and a person in headless Chromium (Debian's, through playwright-core) on the live view. The person
 * sees a frame of the sandbox page, takes control (the agent pauses: no model call while held), clicks a button
 * and types on the sandbox page through the shown frame, and hands back with a note, which the agent is told and
 * the run keeps as a step. One controller at a time; tampered, other-run, revoked links and another
 * organisation's key refused. Both sandbox drivers. And with request_human (item 4), on the local driver: the
 * person answers a question, approves, denies and does a takeover on the live page, through POST /v1/runs/{id}/human
 * with the page's live token, and the agent reads each answer as given via live.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dockerAvailability } from '../fixtures/docker.js';
import { hold, reply, text, toolResults, toolUse, type AnthropicRequest, type AnthropicTurn } from '../fixtures/scripted-anthropic.js';
import type { TestDaemon } from '../fixtures/test-daemon.js';
import { SITE_PAGE } from '../fixtures/live-site.js';
import { signingSecretOf, WebhookReceiver } from '../fixtures/webhook-receiver.js';
import { createRun, servePages, startEngine, stepsOf, until, untilRunWaits, waitForRun, type EngineHarness } from '../engine/harness.js';

const docker = await dockerAvailability(process.env.ERRAND_SANDBOX_IMAGE ?? 'errand-sandbox:latest');

const THOUGHT = 'I open the test page and look at its button.';
const NOTE = 'Pressed the button and typed a greeting';

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

describe('a person on the live page answers what the agent asks (request_human), local driver', () => {
  const CODE_QUESTION = 'What is the one-time code?';
  const TAKEOVER_QUESTION = 'Please press the button for me';
  const SIZE_QUESTION = 'And which size, M or L?';
  let clicks = 0;
  let pages: Awaited<ReturnType<typeof servePages>>;
  let h: EngineHarness;
  let d: TestDaemon;
  let receiver: WebhookReceiver;
  let runId: string;
  let viewer: Page;
  const afterAnswer = hold(toolUse('request_human', { kind: 'answer', question: SIZE_QUESTION }));
  const afterSecondAnswer = hold(toolUse('request_human', { kind: 'approve', question: 'Submit the form with code 123456?' }));
  const afterApprove = hold(toolUse('request_human', { kind: 'approve', question: 'Also subscribe to the newsletter?' }));
  const afterReject = hold(toolUse('request_human', { kind: 'takeover', question: TAKEOVER_QUESTION, obstacle: 'other' }));
  const afterTakeover = hold(toolUse('browser', { action: 'read_text' }));
  const afterRead = hold(toolUse('finish', { result: { done: true }, confidence: 'high', matched_text: null, evidence_screenshot: null }));

  /** Polls the run until it waits for a request of `kind`; answers its envelope. */
  const waitingFor = (kind: string) => untilRunWaits(d, runId, `a person (${kind})`, (w) => w.kind === kind);
  const tokenOf = (liveUrl: string) => new URL(liveUrl).searchParams.get('token')!;
  const withToken = (token: string, path: string, method = 'GET', body?: unknown) => d.api(method, path, body, { key: null, headers: { authorization: `Bearer ${token}` } });
  const answeredHook = (requestId: string) =>
    receiver.waitFor((ds) => ds.find((x) => x.json?.event === 'run.human_answered' && x.json.data.request_id === requestId), `run.human_answered of ${requestId}`);
  /** What the page shows of what the run waits for, once the run waits for nothing (its poll is once a second). */
  const shownNothing = () => viewer.waitForSelector('#waiting', { state: 'hidden' });

  beforeAll(async () => {
    pages = await servePages((req, res) => {
      if (req.url === '/button') res.writeHead(200, { 'content-type': 'text/html' }).end(SITE_PAGE);
      else if (req.url === '/clicked' && req.method === 'POST') {
        clicks += 1;
        res.writeHead(204).end();
      } else res.writeHead(404).end();
    });
    h = await startEngine();
    d = h.daemon;
    receiver = await WebhookReceiver.start([signingSecretOf(d.home, d.orgId)]);
    h.model.script([
      reply([text(THOUGHT), toolUse('browser', { action: 'navigate', url: `${pages.url}/button` })]),
      toolUse('request_human', { kind: 'answer', question: CODE_QUESTION }),
      afterAnswer,
      afterSecondAnswer,
      afterApprove,
      afterReject,
      afterTakeover,
      afterRead,
    ]);
    runId = await createRun(d, { prompt: 'Fill in the form on the test page.', callback_url: receiver.url() });
    viewer = await browser.newPage({ viewport: { width: 1400, height: 1200 } });
  }, 120_000);

  afterAll(async () => {
    for (const held of [afterAnswer, afterSecondAnswer, afterApprove, afterReject, afterTakeover, afterRead]) held.release();
    await viewer?.close();
    await receiver?.close();
    await h?.close();
    await pages?.close();
  });

  it('offers a working live link while the run waits, in waiting_for and in the run.needs_human webhook', async () => {
    const run = await waitingFor('answer');
    const waiting = run.waiting_for;
    expect(waiting.live_url).toMatch(new RegExp(`^${d.url}/v1/runs/${runId}/live\\?token=elv_`));
    const page = await fetch(waiting.live_url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const needs = await receiver.waitFor((ds) => ds.find((x) => x.json?.event === 'run.needs_human' && x.json.data.request_id === waiting.request_id), 'run.needs_human');
    expect(needs.verifiedWith).not.toBeNull();
    const hooked = JSON.parse(needs.body).data;
    expect(hooked).toMatchObject({ run_id: runId, kind: 'answer', question: CODE_QUESTION, answer_url: `${d.url}/v1/runs/${runId}/human` });
    expect(hooked.live_url).toMatch(new RegExp(`^${d.url}/v1/runs/${runId}/live\\?token=elv_`));
    expect((await fetch(hooked.live_url)).status).toBe(200);
  });

  it("lets the live token answer its own run's /human only: another run is 403, a route without liveLink 401", async () => {
    const { waiting_for: w } = await waitingFor('answer');
    const token = tokenOf(w.live_url);
    // Past authentication: the run's own request is looked at (a request it does not wait for is a conflict).
    const mismatch = await withToken(token, `/v1/runs/${runId}/human`, 'POST', { request_id: 'hr_00000000000000000000000000', answer: 'x' });
    expect(mismatch.status).toBe(409);
    expect(mismatch.body.error).toMatchObject({ code: 'request_mismatch' });
    const invalid = await withToken(token, `/v1/runs/${runId}/human`, 'POST', { request_id: w.request_id, approved: true });
    expect(invalid.status).toBe(400);
    const other = await withToken(token, '/v1/runs/run_00000000000000000000000000/human', 'POST', { request_id: w.request_id, answer: 'x' });
    expect(other.status).toBe(403);
    expect(other.body.error).toMatchObject({ type: 'invalid_request_error', code: 'live_link_other_run' });
    expect((await withToken(token, `/v1/runs/${runId}/cancel`, 'POST', {})).status).toBe(401);
    expect((await withToken(token, `/v1/runs/${runId}/steps`)).status).toBe(401);
    expect((await d.api('GET', `/v1/runs/${runId}`)).body).toMatchObject({ status: 'running', waiting_for: { request_id: w.request_id } });
  });

  it('answers a question on the page: the agent reads the answer, given via live', async () => {
    const { waiting_for: w } = await waitingFor('answer');
    await viewer.goto(w.live_url);
    await viewer.waitForSelector('#answer-form', { state: 'visible' });
    expect(await viewer.textContent('#waiting-kind')).toBe('answer');
    expect(await viewer.textContent('#waiting-question')).toBe(CODE_QUESTION);
    expect(await viewer.isHidden('#approve-form')).toBe(true);
    await viewer.fill('#answer', '123456');
    await viewer.click('#send-answer');
    const next = await afterAnswer.arrived;
    expect(toolResults(next)[0]).toMatchObject({ isError: false, text: 'A person answered (live link, via live):\n123456' });
    expect((await d.api('GET', `/v1/runs/${runId}`)).body.waiting_for).toBeNull();
    await shownNothing();
    expect(JSON.parse((await answeredHook(w.request_id)).body).data).toMatchObject({
      run_id: runId,
      kind: 'answer',
      answer: '123456',
      approved: null,
      answered_by: 'live link',
      answered_via: 'live',
    });
    afterAnswer.release();
  });

  it('shows the next question with an empty answer box: an answer is never sent again to another question', async () => {
    const { waiting_for: w } = await until('the second question', async () => {
      const run = (await d.api('GET', `/v1/runs/${runId}`)).body;
      return run.waiting_for?.question === SIZE_QUESTION ? run : null;
    });
    await viewer.waitForFunction((q) => document.getElementById('waiting-question')!.textContent === q, SIZE_QUESTION);
    expect(await viewer.inputValue('#answer')).toBe('');
    await viewer.fill('#answer', 'L');
    await viewer.click('#send-answer');
    expect(toolResults(await afterSecondAnswer.arrived)[0]!.text).toBe('A person answered (live link, via live):\nL');
    expect(JSON.parse((await answeredHook(w.request_id)).body).data).toMatchObject({ answer: 'L', answered_via: 'live' });
    await shownNothing();
    afterSecondAnswer.release();
  });

  it('approves, then denies, on the page: the agent reads which', async () => {
    const approve = (await waitingFor('approve')).waiting_for;
    await viewer.waitForSelector('#approve-form', { state: 'visible' });
    expect(await viewer.textContent('#waiting-question')).toBe('Submit the form with code 123456?');
    await viewer.click('#approve');
    expect(toolResults(await afterApprove.arrived)[0]!.text).toBe('A person APPROVED (live link, via live). You may go ahead with exactly what you asked about.');
    expect((await d.api('GET', `/v1/runs/${runId}`)).body.waiting_for).toBeNull();
    expect(JSON.parse((await answeredHook(approve.request_id)).body).data).toMatchObject({ approved: true, answered_via: 'live' });
    await shownNothing();
    afterApprove.release();

    const deny = await until('the second approval', async () => {
      const w = (await d.api('GET', `/v1/runs/${runId}`)).body.waiting_for;
      return w !== null && w.request_id !== approve.request_id ? w : null;
    });
    await viewer.waitForFunction(() => document.getElementById('waiting-question')!.textContent === 'Also subscribe to the newsletter?');
    await viewer.click('#reject');
    expect(toolResults(await afterReject.arrived)[0]!.text).toMatch(/^A person DENIED the approval \(live link, via live\)\. Do not go ahead/);
    expect((await d.api('GET', `/v1/runs/${runId}`)).body.waiting_for).toBeNull();
    expect(JSON.parse((await answeredHook(deny.request_id)).body).data).toMatchObject({ approved: false, answered_via: 'live' });
    await shownNothing();
    afterReject.release();
  });

  it('takes control for a takeover, clicks in the frame, and hands back with a note that answers the request', async () => {
    const { waiting_for: w } = await waitingFor('takeover');
    await viewer.waitForSelector('#takeover-hint', { state: 'visible' });
    expect(await viewer.textContent('#waiting-question')).toBe(TAKEOVER_QUESTION);
    await viewer.waitForFunction(() => (document.getElementById('screen') as HTMLImageElement).src.startsWith('data:image/jpeg;base64,'));
    await viewer.click('#take');
    await viewer.waitForSelector('#hand-back-form', { state: 'visible' });
    await clickOnSandbox(viewer, 200, 100);
    await until('the site to see the click', () => clicks === 1);
    await viewer.fill('#note', NOTE);
    await viewer.click('#hand-back');
    const next = await afterTakeover.arrived;
    expect(toolResults(next)[0]).toMatchObject({
      isError: false,
      text: `A person took over and handed control back (live link, via live).\nTheir note: ${NOTE}\nThe page may have changed: look at it again before going on.`,
    });
    // The control gate's own note rides along: the person's control is a step of its own.
    expect(JSON.stringify(next.body.messages.at(-1))).toContain('A person (live link) took control of the browser');
    expect((await stepsOf(d, runId)).find((s) => s.kind === 'person')).toMatchObject({ name: 'takeover', output: NOTE, input: { by: 'live link', revoked: false } });
    expect((await d.api('GET', `/v1/runs/${runId}`)).body.waiting_for).toBeNull();
    expect(JSON.parse((await answeredHook(w.request_id)).body).data).toMatchObject({ kind: 'takeover', note: NOTE, answered_by: 'live link', answered_via: 'live' });
    await shownNothing();
    afterTakeover.release();
    expect(toolResults(await afterRead.arrived)[0]!.text).toContain('Clicked 1');
    afterRead.release();
    expect(await waitForRun(d, runId)).toMatchObject({ status: 'succeeded', waiting_for: null, live_url: null });
    expect(receiver.unverified()).toEqual([]);
  });
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
    expect(token).toMatch(/^elv_org_\w+\.run_\w+\.\d+\.[\w-]+\.\d+\.[\w-]+$/);
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
    await viewer.fill('#note', NOTE);
    await viewer.click('#hand-back');
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

  it('ends with the run: no live_url, and the link grants nothing more (410)', async () => {
    heldFinish.release();
    const run = await waitForRun(d, runId);
    expect(run.status).toBe('succeeded');
    expect((await d.api('GET', `/v1/runs/${runId}`)).body.live_url).toBeNull();
    const frames = await withToken(`/v1/runs/${runId}/live/frames`);
    expect(frames.status).toBe(410);
    expect(frames.body.error.code).toBe('live_link_run_ended');
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
