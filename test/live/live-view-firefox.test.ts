/**
 * The live page in Firefox (issue 22: "works in a current Chromium and Firefox"): Debian's Firefox ESR, driven over
 * WebDriver BiDi by puppeteer-core (Playwright drives only its own patched Firefox builds). A person sees the
 * sandbox page's frame, takes control, clicks and types on the sandbox page through the frame, and hands back with a
 * note that the agent is told. The whole flow in Chromium, both drivers and the refusals are in live-view.test.ts;
 * this file checks that the page's own code works in the other engine.
 */
import { existsSync } from 'node:fs';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SITE_PAGE } from '../fixtures/live-site.js';
import { hold, reply, text, toolResults, toolUse } from '../fixtures/scripted-anthropic.js';
import { createRun, servePages, startEngine, stepsOf, until, waitForRun, type EngineHarness } from '../engine/harness.js';

const FIREFOX = '/usr/bin/firefox-esr';
const NOTE = 'Pressed the button and typed in Firefox';

// CI installs firefox-esr (.ci/run); a machine without it has nothing to run this with.
describe.runIf(existsSync(FIREFOX) || process.env.CI === 'true')('the live page in Firefox', () => {
  let firefox: Browser;
  let viewer: Page;
  let pages: Awaited<ReturnType<typeof servePages>>;
  let h: EngineHarness;
  let runId: string;
  let liveUrl: string;
  const THOUGHT = 'I open the test page in the sandbox.';
  const heldRead = hold(reply([text('Reading the page again.'), toolUse('browser', { action: 'read_text' })]));
  const heldFinish = hold(toolUse('finish', { result: { done: true }, confidence: 'high', matched_text: null, evidence_screenshot: null }));

  beforeAll(async () => {
    pages = await servePages((req, res) => {
      if (req.url === '/button') res.writeHead(200, { 'content-type': 'text/html' }).end(SITE_PAGE);
      else if (req.url === '/clicked') res.writeHead(204).end();
      else res.writeHead(404).end();
    });
    h = await startEngine();
    h.model.script([reply([text(THOUGHT), toolUse('browser', { action: 'navigate', url: `${pages.url}/button` })]), heldRead, heldFinish]);
    runId = await createRun(h.daemon, { prompt: 'Press the button on the test page.' });
    await heldRead.arrived;
    liveUrl = (await h.daemon.api('GET', `/v1/runs/${runId}`)).body.live_url;
    firefox = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true });
    viewer = await firefox.newPage();
    await viewer.setViewport({ width: 1400, height: 1200 });
  }, 120_000);

  afterAll(async () => {
    heldRead.release();
    heldFinish.release();
    await firefox?.close();
    await h?.close();
    await pages?.close();
  });

  it('shows the frame of the sandbox page and the agent’s thought, under the page’s strict policy', async () => {
    const response = await viewer.goto(liveUrl);
    expect(response!.status()).toBe(200);
    expect(response!.headers()['content-security-policy']).toContain("script-src 'self'");
    await viewer.waitForFunction(() => (document.getElementById('screen') as HTMLImageElement).src.startsWith('data:image/jpeg;base64,'));
    expect(await viewer.$eval('#screen', (img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    await viewer.waitForFunction((thought) => document.getElementById('thought')!.textContent === thought, {}, THOUGHT);
    // The page takes the token out of the address bar once it has read it.
    expect(await viewer.evaluate(() => location.search)).toBe('');
  });

  it('takes control, clicks and types on the sandbox page through the frame, and hands back with a note', async () => {
    const callsWhenTaken = h.model.requests.length;
    await viewer.click('#take');
    await viewer.waitForSelector('#hand-back-form', { visible: true });
    heldRead.release();
    await until('the agent to pause', async () => ((await h.daemon.api('GET', `/v1/runs/${runId}`)).body.progress.last_action ?? '').startsWith('paused'));
    await clickOnSandbox(viewer, 200, 100);
    await clickOnSandbox(viewer, 200, 330);
    await viewer.keyboard.type('hi fox');
    expect(h.model.requests.length).toBe(callsWhenTaken);
    await viewer.type('#note', NOTE);
    await viewer.click('#hand-back');
    const afterHandBack = await heldFinish.arrived;
    expect(toolResults(afterHandBack)[0]!.text).toContain('Clicked 1, typed: hi fox');
    expect(JSON.stringify(afterHandBack.body.messages.at(-1))).toContain(NOTE);
    expect((await stepsOf(h.daemon, runId)).find((s) => s.kind === 'person')).toMatchObject({ name: 'takeover', output: NOTE });
    heldFinish.release();
    expect(await waitForRun(h.daemon, runId)).toMatchObject({ status: 'succeeded' });
  });
});

/** Clicks the shown frame where the sandbox page's (x, y) is, in its CSS pixels. */
async function clickOnSandbox(viewer: Page, x: number, y: number): Promise<void> {
  const box = await viewer.$eval('#screen', (img) => {
    const rect = img.getBoundingClientRect();
    return { left: rect.left, top: rect.top, width: rect.width, height: rect.height };
  });
  await viewer.mouse.click(box.left + (x / 1280) * box.width, box.top + (y / 800) * box.height);
}
