/**
 * An eval's report (GET /v1/evals/{id}/report) in headless Chromium: the page loads by its signed link alone, under
 * a policy that allows no script, shows the cases side by side with the baseline, and draws its chart of pass rate,
 * cost and duration over the job's evals (the chart's lines are on the screen, in their colours).
 */
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedAnthropic, type ScriptedAnthropic } from '../fixtures/scripted-anthropic.js';
import { startDaemon, type TestDaemon } from '../fixtures/test-daemon.js';
import { tempDir } from '../fixtures/temp-dir.js';
import { addingJob, answer, evalEnded, TEN_CASES } from './harness.js';

const MODEL_KEY = 'test-model-key';
let model: ScriptedAnthropic;
let d: TestDaemon;
let browser: Browser;
let report: { url: string; id: string; eval: any };
const shots = tempDir('errand-eval-report-');

beforeAll(async () => {
  model = await startScriptedAnthropic({ apiKey: MODEL_KEY });
  d = await startDaemon({
    env: { ANTHROPIC_BASE_URL: model.baseUrl, ANTHROPIC_API_KEY: MODEL_KEY, ERRAND_SANDBOX_DRIVER: 'local', ERRAND_SANDBOX_WARM_POOL_SIZE: '0', ERRAND_BILLING_SANDBOX_USD_PER_S: '0' },
  });
  const job = await addingJob(d);
  // Three evals of the job: sonnet, opus, then sonnet again beside the opus one.
  let baseline: string | undefined;
  for (const m of ['sonnet', 'opus', 'sonnet'] as const) {
    model.script(Array.from({ length: 10 }, () => answer));
    const res = await d.api('POST', `/v1/jobs/${job}/evals`, { cases: TEN_CASES, model: m, ...(baseline === undefined ? {} : { baseline_id: baseline }) });
    const ended = await evalEnded(d, res.body.id);
    report = { url: ended.report_url, id: ended.id, eval: ended };
    baseline = ended.id;
  }
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
}, 180_000);

afterAll(async () => {
  // ERRAND_KEEP_SCREENSHOTS=1 keeps them, to look at.
  if (process.env.ERRAND_KEEP_SCREENSHOTS !== '1') shots.remove();
  await browser?.close();
  await d?.cleanup();
  await model?.close();
});

/** How many pixels of the PNG are close to `hex`, counted by a blank page's canvas. */
async function pixelsOf(page: Page, png: Buffer, hex: string): Promise<number> {
  return page.evaluate(
    async ({ data, hex }) => {
      const img = new Image();
      img.src = `data:image/png;base64,${data}`;
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = img.width;
      canvas.height = img.height;
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(img, 0, 0);
      const px = ctx.getImageData(0, 0, img.width, img.height).data;
      const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
      let n = 0;
      for (let i = 0; i < px.length; i += 4) if (Math.abs(px[i]! - r!) < 24 && Math.abs(px[i + 1]! - g!) < 24 && Math.abs(px[i + 2]! - b!) < 24) n++;
      return n;
    },
    { data: png.toString('base64'), hex },
  );
}

describe('GET /v1/evals/{id}/report', () => {
  it('renders in Chromium by its signed link alone, with its chart drawn and the cases side by side', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    const response = await page.goto(report.url);
    expect(response!.status()).toBe(200);
    const headers = response!.headers();
    expect(headers['content-type']).toBe('text/html; charset=utf-8');
    expect(headers['content-security-policy']).toContain("default-src 'none'");
    expect(headers['content-security-policy']).not.toContain('script-src');
    expect(headers['cache-control']).toBe('no-store');
    expect(headers['referrer-policy']).toBe('no-referrer');
    expect(await page.title()).toBe('Eval of adding · Errand');

    // The chart: a panel per measure, each a line through the three evals, this one ringed.
    const panels = await page.$$eval('svg.chart g.panel', (gs) =>
      gs.map((g) => {
        const line = g.querySelector('polyline')!;
        const box = line.getBBox();
        return {
          measure: g.getAttribute('data-measure'),
          points: line.getAttribute('points')!.trim().split(/\s+/).length,
          length: line.getTotalLength(),
          width: box.width,
          current: g.querySelectorAll('circle.current').length,
        };
      }),
    );
    expect(panels.map((p) => [p.measure, p.points, p.current])).toEqual([
      ['pass_rate', 3, 1],
      ['cost_usd', 3, 1],
      ['duration_ms', 3, 1],
    ]);
    for (const p of panels) {
      expect(p.length).toBeGreaterThan(100);
      expect(p.width).toBeGreaterThan(100);
    }
    // The pass rate went 0.7, 0.8, 0.7: the middle point is above the others.
    const ys = await page.$$eval('svg.chart g[data-measure="pass_rate"] circle', (cs) => cs.map((c) => Number(c.getAttribute('cy'))));
    expect(ys[1]).toBeLessThan(ys[0]!);
    expect(ys[2]).toBe(ys[0]);

    // The cases, side by side with the baseline.
    const rows = await page.$$eval('tbody tr', (trs) => trs.map((tr) => ({ status: tr.getAttribute('data-status'), text: tr.textContent ?? '' })));
    expect(rows).toHaveLength(10);
    expect(rows[1]).toMatchObject({ status: 'failed' });
    expect(rows[1]!.text).toContain('result.sum: expected 7, got 8');
    expect(rows[1]!.text).toContain('newly failing');
    expect(rows[0]!.text).toContain('newly passing');
    expect(await page.locator('h2', { hasText: 'Beside' }).textContent()).toContain(report.eval.baseline_id);

    const whole = join(shots.path, 'report.png');
    await page.screenshot({ path: whole, fullPage: true });
    const chart = await page.locator('svg.chart').screenshot({ path: join(shots.path, 'chart.png') });
    if (process.env.ERRAND_KEEP_SCREENSHOTS === '1') console.info(`eval report screenshots: ${whole}, ${join(shots.path, 'chart.png')}`);
    const blank = await context.newPage();
    // The lines in their colours: green pass rate, brown cost, blue duration.
    for (const colour of ['#1f7a3a', '#9a5b00', '#2456a6']) expect(await pixelsOf(blank, chart, colour)).toBeGreaterThan(300);
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  it('answers 403 to a link whose signature was changed, and 404 to an eval that does not exist', async () => {
    const url = new URL(report.url);
    url.searchParams.set('sig', `${url.searchParams.get('sig')!.slice(0, -2)}AA`);
    expect((await fetch(url)).status).toBe(403);
    url.searchParams.delete('sig');
    expect((await fetch(url)).status).toBe(403);
    const res = await d.api('GET', `/v1/evals/eval_00000000000000000000000000`);
    expect(res.status).toBe(404);
  });
});
