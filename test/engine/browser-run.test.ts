import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LinkSigner } from '../../src/artifacts/link-signer.js';
import { loadMasterKey } from '../../src/secrets/master-key.js';
import { toolResults, toolUse, type AnthropicRequest } from '../fixtures/scripted-anthropic.js';
import { createRun, servePages, startEngine, stepsOf, waitForRun, type EngineHarness } from './harness.js';

let h: EngineHarness;
let pages: Awaited<ReturnType<typeof servePages>>;

const PRICE_PAGE = `<!doctype html><title>Widget shop</title>
<body style="font-family: sans-serif"><h1>Blue widget</h1><p id="price">Price: 19.99 EUR</p><p>In stock</p></body>`;

beforeAll(async () => {
  pages = await servePages((req, res) => {
    if (req.url === '/widget') res.writeHead(200, { 'content-type': 'text/html' }).end(PRICE_PAGE);
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
  });
  h = await startEngine();
});

afterAll(async () => {
  await h?.close();
  await pages?.close();
});

describe('a browser task', () => {
  let runId: string;
  let run: any;
  let start: number;

  beforeAll(async () => {
    start = h.model.requests.length;
    h.model.script([
      toolUse('browser', { action: 'navigate', url: `${pages.url}/widget` }),
      toolUse('browser', { action: 'read_text' }),
      (request: AnthropicRequest) => {
        const price = /Price: ([\d.]+) EUR/.exec(toolResults(request)[0]?.text ?? '')?.[1];
        return toolUse('browser', { action: 'screenshot' }, `toolu_shot_${price}`);
      },
      (request: AnthropicRequest) => {
        const shotId = /screenshot id: (art_\w+)/.exec(toolResults(request)[0]?.text ?? '')?.[1];
        const price = Number(/toolu_shot_([\d.]+)/.exec(JSON.stringify(request.body.messages))?.[1]);
        return toolUse('finish', { result: { price, currency: 'EUR' }, confidence: 'high', matched_text: 'Price: 19.99 EUR', evidence_screenshot: shotId });
      },
    ]);
    runId = await createRun(h.daemon, {
      prompt: 'What does the blue widget cost at {{url}}?',
      inputs: { url: `${pages.url}/widget` },
      output_schema: { type: 'object', required: ['price', 'currency'], properties: { price: { type: 'number' }, currency: { type: 'string' } } },
    });
    run = await waitForRun(h.daemon, runId);
  });

  it('extracts the result from the page', () => {
    expect(run).toMatchObject({ status: 'succeeded', result: { price: 19.99, currency: 'EUR' }, confidence: 'high', warnings: [] });
    expect(run.evidence.matched_text).toBe('Price: 19.99 EUR');
  });

  it('sends page text back as text and the screenshot as an image block', () => {
    const requests = h.model.requests.slice(start);
    const navigated = toolResults(requests[1]!)[0]!;
    expect(navigated.isError).toBe(false);
    expect(navigated.text).toContain(`url: ${pages.url}/widget`);
    expect(navigated.text).toContain('title: Widget shop');
    expect(navigated.text).toContain('http status: 200');
    const read = toolResults(requests[2]!)[0]!;
    expect(read.text).toContain('Price: 19.99 EUR');
    expect(read.images).toEqual([]);
    const shot = toolResults(requests[3]!)[0]!;
    expect(shot.images).toHaveLength(1);
    expect(shot.images[0]!.source.media_type).toBe('image/png');
    expect(Buffer.from(shot.images[0]!.source.data, 'base64').subarray(1, 4).toString()).toBe('PNG');
  });

  it('serves the evidence screenshot at its signed URL without an API key', async () => {
    const url = new URL(run.evidence.screenshot_url);
    expect(url.origin).toBe(h.daemon.url);
    expect(url.pathname).toMatch(/^\/v1\/artifacts\/art_\w+$/);
    const expires = Number(url.searchParams.get('expires'));
    const sevenDays = 7 * 24 * 3600;
    expect(expires).toBeGreaterThan(Date.now() / 1000 + sevenDays - 120);
    expect(expires).toBeLessThanOrEqual(Date.now() / 1000 + sevenDays + 1);
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  });

  it('dates the evidence by when the screenshot was taken', async () => {
    const steps = await stepsOf(h.daemon, runId);
    const shot = steps.find((s) => s.name === 'browser.screenshot');
    expect(shot.screenshot_url).not.toBeNull();
    const artifactId = new URL(run.evidence.screenshot_url).pathname.split('/').at(-1);
    expect(new URL(shot.screenshot_url).pathname.endsWith(artifactId!)).toBe(true);
    const checked = Date.parse(run.evidence.checked_at);
    expect(checked).toBeLessThanOrEqual(Date.parse(shot.created_at));
    expect(checked).toBeGreaterThanOrEqual(Date.parse(run.started_at));
    expect(checked).toBeLessThan(Date.parse(run.finished_at));
  });

  it('answers 403 to a tampered link, in the shared error shape', async () => {
    const url = new URL(run.evidence.screenshot_url);
    const sig = url.searchParams.get('sig')!;
    const flipped = new URL(url);
    flipped.searchParams.set('sig', `${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`);
    const later = new URL(url);
    later.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    const unsigned = new URL(url.pathname, url.origin);
    for (const bad of [flipped, later, unsigned]) {
      const res = await fetch(bad);
      expect(res.status).toBe(403);
      const body = (await res.json()) as any;
      expect(body.error).toMatchObject({ code: 'invalid_link_signature' });
      expect(body.request_id).toMatch(/^req_/);
    }
    const otherId = new URL(url);
    otherId.pathname = '/v1/artifacts/art_00000000000000000000000000';
    expect((await fetch(otherId)).status).toBe(403);
  });

  it('answers 410 to a genuine link past its expiry', async () => {
    const artifactId = new URL(run.evidence.screenshot_url).pathname.split('/').at(-1)!;
    const signer = new LinkSigner(loadMasterKey({ home: h.daemon.home, env: {} }));
    const expired = Math.floor(Date.now() / 1000) - 60;
    const res = await fetch(`${h.daemon.url}/v1/artifacts/${artifactId}?expires=${expired}&sig=${signer.sign(artifactId, expired)}`);
    expect(res.status).toBe(410);
    expect(((await res.json()) as any).error).toMatchObject({ code: 'link_expired' });
    const fresh = Math.floor(Date.now() / 1000) + 60;
    expect((await fetch(`${h.daemon.url}/v1/artifacts/${artifactId}?expires=${fresh}&sig=${signer.sign(artifactId, fresh)}`)).status).toBe(200);
  });

  it('records every step with its input, output and duration', async () => {
    const steps = await stepsOf(h.daemon, runId);
    expect(steps.map((s) => s.name)).toEqual([
      'claude-sonnet-4-6', 'browser.navigate', 'claude-sonnet-4-6', 'browser.read_text', 'claude-sonnet-4-6', 'browser.screenshot', 'claude-sonnet-4-6', 'finish',
    ]);
    expect(steps.map((s) => s.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(steps[1].input).toEqual({ action: 'navigate', url: `${pages.url}/widget` });
    expect(steps[3].output).toContain('Price: 19.99 EUR');
    for (const s of steps) expect(s.duration_ms).toBeGreaterThanOrEqual(0);
    expect(run.progress).toEqual({ steps: 8, last_action: 'finished' });
  });
});
