/**
 * Latency from a change on the sandbox page to the frame on the viewer (issue 22: goal p50 under 150 ms): a run's
 * agent opens a page whose background changes colour at every multiple of PERIOD_MS of the wall clock (one of 8
 * colours, chosen by the multiple), then waits (a held model turn). A person's Chromium (Debian's, headless) opens
 * the run's live view; each frame it shows is decoded and its centre pixel read, and the latency of a new colour is
 * the time it was shown minus the instant the page changed to it. Sandbox and viewer share the machine's clock.
 */
import { chromium } from 'playwright-core';
import { hold, toolUse } from '../../test/fixtures/scripted-anthropic.js';
import { servePages } from '../../test/engine/harness.js';
import { percentile, startLiveBenchDaemon } from './live-bench-daemon.js';

const PERIOD_MS = 200;
/** Colours by index: red 4, green 2, blue 1, so that a pixel's index is read off its channels. */
const PAGE = `<!doctype html><title>changing</title><body style="margin:0;height:100vh"><script>
const colours = ['#000', '#00f', '#0f0', '#0ff', '#f00', '#f0f', '#ff0', '#fff'];
function tick() {
  document.body.style.background = colours[Math.floor(Date.now() / ${PERIOD_MS}) % 8];
  setTimeout(tick, ${PERIOD_MS} - (Date.now() % ${PERIOD_MS}) + 1);
}
tick();
</script></body>`;

export interface FrameLatency {
  changes: number;
  /** Changes the viewer saw (a change can be skipped when a frame is dropped or two fall between frames). */
  seen: number;
  p50: number;
  p99: number;
}

export async function measureFrameLatency(changes: number): Promise<FrameLatency> {
  const site = await servePages((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE));
  const bench = await startLiveBenchDaemon({ driver: 'local' });
  const waiting = hold(toolUse('finish', { result: { done: true }, confidence: 'high' }));
  bench.model.script([toolUse('browser', { action: 'navigate', url: site.url }), waiting]);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
  try {
    const runId = await bench.startRun('Open the changing page and wait.');
    await waiting.arrived;
    const viewer = await browser.newPage({ viewport: { width: 1400, height: 1100 } });
    await viewer.goto(await bench.liveUrl(runId));
    await viewer.waitForFunction(() => (document.getElementById('screen') as HTMLImageElement).src.startsWith('data:'));
    await viewer.evaluate(() => {
      const seen: [number, number][] = [];
      (window as unknown as { seen: typeof seen }).seen = seen;
      const img = document.getElementById('screen') as HTMLImageElement;
      const canvas = document.createElement('canvas');
      canvas.width = 1;
      canvas.height = 1;
      const context = canvas.getContext('2d', { willReadFrequently: true })!;
      new MutationObserver(() => {
        const src = img.src;
        img.decode().then(
          () => {
            if (img.src !== src) return;
            const shownAt = Date.now();
            context.drawImage(img, img.naturalWidth / 2, img.naturalHeight / 2, 1, 1, 0, 0, 1, 1);
            const [r, g, b] = context.getImageData(0, 0, 1, 1).data as unknown as [number, number, number];
            seen.push([shownAt, (r > 128 ? 4 : 0) + (g > 128 ? 2 : 0) + (b > 128 ? 1 : 0)]);
          },
          () => undefined,
        );
      }).observe(img, { attributes: true, attributeFilter: ['src'] });
    });
    await new Promise((resolve) => setTimeout(resolve, changes * PERIOD_MS));
    const seen = await viewer.evaluate(() => (window as unknown as { seen: [number, number][] }).seen);
    const latencies: number[] = [];
    let previous = -1;
    for (const [shownAt, index] of seen) {
      if (index === previous) continue;
      previous = index;
      let changedAt = Math.floor(shownAt / PERIOD_MS) * PERIOD_MS;
      for (let back = 0; back < 8 && Math.floor(changedAt / PERIOD_MS) % 8 !== index; back += 1) changedAt -= PERIOD_MS;
      latencies.push(shownAt - changedAt);
    }
    // The first colour may have been on the page before the viewer looked.
    latencies.shift();
    latencies.sort((a, b) => a - b);
    waiting.release();
    return { changes, seen: latencies.length, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
  } finally {
    waiting.release();
    await browser.close();
    await bench.close();
    await site.close();
  }
}
