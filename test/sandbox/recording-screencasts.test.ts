/**
 * A run can be recorded and watched at once (issue 22, contracts item 1): the recording's frames come from the
 * trace's screencast, on Playwright's own CDP session, and a live view's screencast runs on a session of its own.
 * Chromium keeps one screencast per session: starting and stopping the second leaves the trace's going.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type BrowserContext } from 'playwright-core';
import { traceEvents, zipEntries } from '../fixtures/recording-files.js';
import { tempDir } from '../fixtures/temp-dir.js';

const dir = tempDir('errand-screencasts-');
let context: BrowserContext;

beforeAll(async () => {
  context = await chromium.launchPersistentContext('', { executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'], viewport: { width: 1280, height: 800 } });
}, 60_000);

afterAll(async () => {
  await context?.close();
  dir.remove();
});

describe('a traced page with a second screencast', () => {
  it('sends frames to both, and the trace keeps its own after the second stops', async () => {
    await context.tracing.start({ screenshots: true, snapshots: true });
    const page = context.pages()[0] ?? (await context.newPage());
    const live = await context.newCDPSession(page);
    let liveFrames = 0;
    live.on('Page.screencastFrame', (frame) => {
      liveFrames++;
      void live.send('Page.screencastFrameAck', { sessionId: frame.sessionId });
    });
    await live.send('Page.startScreencast', { format: 'jpeg', quality: 50 });
    for (let i = 0; i < 5; i++) {
      await page.setContent(`<h1>watched ${i}</h1>`);
      await page.waitForTimeout(100);
    }
    await live.send('Page.stopScreencast');
    const watched = liveFrames;
    for (let i = 0; i < 5; i++) {
      await page.setContent(`<h1>after ${i}</h1>`);
      await page.waitForTimeout(100);
    }
    const path = `${dir.path}/trace.zip`;
    await context.tracing.stop({ path });
    const events = traceEvents(await zipEntries(readFileSync(path)));
    expect(watched).toBeGreaterThan(0);
    expect(liveFrames).toBe(watched);
    // The trace has a frame of the last page set, after the live screencast had stopped.
    const lastFrame = Math.max(...events.filter((e) => e.type === 'screencast-frame').map((e) => e.timestamp as number));
    const lastSet = Math.max(...events.filter((e) => e.type === 'before' && e.method === 'setContent').map((e) => e.startTime as number));
    expect(lastFrame).toBeGreaterThan(lastSet);
  }, 60_000);
});
