/**
 * The live page in headless Chromium (issue 31, item 18), on the local driver: the screen keeps its place when a
 * person takes control (a narrow window, where the panel sits below the screen and the page scrolls), a click lands
 * on the point of the run's page under the pointer, the status reads as sentences, and once the run has ended the page
 * makes no more requests (its clock run a minute on).
 */
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hold, toolUse } from '../fixtures/scripted-anthropic.js';
import { createRun, servePages, startEngine, until, waitForRun, type EngineHarness } from '../engine/harness.js';

/** A page that tells its server where each mouse press landed, in its CSS pixels. */
const TARGET_PAGE = `<!doctype html><title>Target</title><body style="margin:0;background:linear-gradient(90deg,#fff,#9cf)">
<p style="font-size:40px;margin:20px">Click anywhere</p>
<script>document.addEventListener('mousedown', (e) => { fetch('/pressed?x=' + e.clientX + '&y=' + e.clientY, { method: 'POST' }); });</script></body>`;
/** The sandbox browser's viewport (browser.ts), which the frames show. */
const SANDBOX = { width: 1280, height: 800 };

describe('the live page', () => {
  let h: EngineHarness;
  let pages: Awaited<ReturnType<typeof servePages>>;
  let browser: Browser;
  let context: BrowserContext;
  let viewer: Page;
  let runId: string;
  const presses: { x: number; y: number }[] = [];
  /** Every request the page made, in order, with what the page showed when it was made. */
  const requests: { path: string; ended: boolean }[] = [];
  const held = hold(toolUse('browser', { action: 'read_text' }));

  const screenBox = () =>
    viewer.evaluate(() => {
      const rect = document.getElementById('screen')!.getBoundingClientRect();
      return { left: rect.left, top: rect.top, width: rect.width, height: rect.height, scrollY: window.scrollY };
    });

  beforeAll(async () => {
    pages = await servePages((req, res) => {
      const url = new URL(req.url ?? '/', 'http://site.test');
      if (url.pathname === '/pressed') {
        presses.push({ x: Number(url.searchParams.get('x')), y: Number(url.searchParams.get('y')) });
        return void res.writeHead(204).end();
      }
      res.writeHead(200, { 'content-type': 'text/html' }).end(TARGET_PAGE);
    });
    h = await startEngine();
    h.model.script([toolUse('browser', { action: 'navigate', url: `${pages.url}/target` }), held, toolUse('finish', { result: { done: true }, confidence: 'high' })]);
    runId = await createRun(h.daemon, { prompt: 'Wait on the page.' });
    await held.arrived;
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
    // A narrow window: the panel sits below the screen, and the page is taller than the window.
    context = await browser.newContext({ viewport: { width: 800, height: 600 } });
    await context.clock.install();
    viewer = await context.newPage();
    let endedShown = false;
    viewer.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path.startsWith('/v1/runs/')) requests.push({ path, ended: endedShown });
    });
    viewer.on('console', (message) => {
      if (message.text() === 'ended shown') endedShown = true;
    });
    await viewer.goto((await h.daemon.api('GET', `/v1/runs/${runId}`)).body.live_url);
    await viewer.waitForFunction(() => (document.getElementById('screen') as HTMLImageElement).naturalWidth > 0);
  }, 120_000);

  afterAll(async () => {
    held.release();
    await browser?.close();
    await h?.close();
    await pages?.close();
  });

  it('says the run is running, as a sentence', async () => {
    await viewer.waitForFunction(() => document.getElementById('status')!.textContent === 'The run is running.');
  });

  it('keeps the screen where it is when control is taken', async () => {
    const before = await screenBox();
    expect(await viewer.evaluate(() => document.documentElement.scrollHeight > window.innerHeight)).toBe(true);
    await viewer.click('#take');
    await viewer.waitForSelector('#hand-back-form', { state: 'visible' });
    expect(await screenBox()).toEqual(before);
    await viewer.waitForFunction(() => document.getElementById('status')!.textContent === 'The run is running. The agent is paused while a person has control.');
    expect(await screenBox()).toEqual(before);
  });

  it("lands a click on the point of the run's page under the pointer", async () => {
    const box = await screenBox();
    for (const [x, y] of [
      [300, 200],
      [1000, 700],
    ] as const) {
      // On a whole pixel of the viewer's (mouse events count in whole pixels), and where that pixel is on the run's page.
      const at = { x: Math.round(box.left + (x / SANDBOX.width) * box.width), y: Math.round(box.top + (y / SANDBOX.height) * box.height) };
      const expected = { x: ((at.x - box.left) / box.width) * SANDBOX.width, y: ((at.y - box.top) / box.height) * SANDBOX.height };
      await viewer.mouse.click(at.x, at.y);
      const pressed = await until(`the press at ${x},${y}`, () => presses.at(-1));
      // The run's page counts in whole pixels too.
      expect(Math.abs(pressed.x - expected.x), `x of ${JSON.stringify(pressed)}, expected ${JSON.stringify(expected)}`).toBeLessThanOrEqual(1);
      expect(Math.abs(pressed.y - expected.y), `y of ${JSON.stringify(pressed)}, expected ${JSON.stringify(expected)}`).toBeLessThanOrEqual(1);
      presses.length = 0;
    }
  });

  it('says how the run ended, and then makes no more requests', async () => {
    await viewer.click('#hand-back');
    await viewer.waitForSelector('#hand-back-form', { state: 'hidden' });
    // The page says when it has shown the stream's end (the test's own hook: the console line below).
    await viewer.evaluate(() => {
      const note = document.getElementById('screen-note')!;
      new MutationObserver(() => {
        if (note.textContent === 'The agent has finished.') console.log('ended shown');
      }).observe(note, { childList: true, characterData: true, subtree: true });
    });
    held.release();
    expect((await waitForRun(h.daemon, runId)).status).toBe('succeeded');
    await viewer.waitForFunction(() => document.getElementById('screen-note')!.textContent === 'The agent has finished.');
    expect(await viewer.isDisabled('#take')).toBe(true);
    await viewer.waitForFunction(() => document.getElementById('status')!.textContent!.startsWith('The run succeeded.'));
    const made = requests.length;
    await viewer.clock.runFor(60_000);
    expect(requests.slice(made)).toEqual([]);
    // After the stream said `ended`, the page asked for no other stream.
    expect(requests.filter((r) => r.ended && r.path.endsWith('/live/frames'))).toEqual([]);
  });
});
