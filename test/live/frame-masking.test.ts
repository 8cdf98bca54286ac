/**
 * The live view's frames carry no secret (issue 31, item 2): the daemon masks every text member of every frame with
 * the run's mask (its secrets in every form) and the supervisor the TOTP codes it typed. As a unit, on the stream the
 * supervisor sends; and end to end on both sandbox drivers, where a form sends a typed password and a typed TOTP code
 * in its query, and the frames' `url` shows `[secret:<name>]` and `[totp:<name>]` instead.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretForms } from '../../src/connections/secret-forms.js';
import { SecretMask } from '../../src/connections/secret-mask.js';
import { frameMasking } from '../../src/live/frame-masking.js';
import { dockerAvailability } from '../fixtures/docker.js';
import { frameWhere } from '../fixtures/live-frames.js';
import { hold, toolUse, type AnthropicTurn } from '../fixtures/scripted-anthropic.js';
import { createRun, servePages, startEngine, waitForRun, type EngineHarness } from '../engine/harness.js';

const docker = await dockerAvailability(process.env.ERRAND_SANDBOX_IMAGE ?? 'errand-sandbox:latest');

const PASSWORD = `Fr4me pw&<x>"q'!/%+`;
const SEED = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

async function masked(chunks: string[], mask: SecretMask): Promise<string> {
  const encoder = new TextEncoder();
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  let out = '';
  const decoder = new TextDecoder();
  const reader = source.pipeThrough(frameMasking(mask)).getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) out += decoder.decode(read.value, { stream: true });
  return out;
}

const frameEvent = (frame: Record<string, unknown>) => `event: frame\ndata: ${JSON.stringify(frame)}\n\n`;

describe('frameMasking', () => {
  const mask = new SecretMask([{ name: 'shop', value: PASSWORD }]);
  const jpeg = Buffer.alloc(3000, 7).toString('base64');

  it('masks every text member of a frame, in every form of the secret, and leaves the JPEG and the sizes as they are', async () => {
    const url = `http://shop.test/landing?pw=${new URLSearchParams({ k: PASSWORD }).toString().slice(2)}&back=${encodeURIComponent(encodeURIComponent(PASSWORD))}`;
    const out = await masked([frameEvent({ jpeg, width: 1280, height: 800, url, title: `Hello ${PASSWORD}` })], mask);
    expect(out).toBe(frameEvent({ jpeg, width: 1280, height: 800, url: 'http://shop.test/landing?pw=[secret:shop]&back=[secret:shop]', title: 'Hello [secret:shop]' }));
  });

  it('reads events cut anywhere across chunks, and passes keep-alives and waiting as they are', async () => {
    const stream = `event: waiting\ndata: {}\n\n:\n\n${frameEvent({ jpeg, width: 10, height: 20, url: `https://x.test/?p=${encodeURIComponent(PASSWORD)}` })}`;
    const chunks = [stream.slice(0, 5), stream.slice(5, 24), stream.slice(24, 25), stream.slice(25, 2000), stream.slice(2000)];
    expect(await masked(chunks, mask)).toBe(`event: waiting\ndata: {}\n\n:\n\n${frameEvent({ jpeg, width: 10, height: 20, url: 'https://x.test/?p=[secret:shop]' })}`);
  });

  it('drops events the live view does not know, and frames that are not JSON objects', async () => {
    const out = await masked([`event: other\ndata: ${JSON.stringify({ url: PASSWORD })}\n\n`, 'event: frame\ndata: {not json\n\n', 'event: frame\ndata: [1]\n\n', `data: ${PASSWORD}\n\n`], mask);
    expect(out).toBe('');
  });
});

interface Site {
  /** The form page as the sandbox's browser reaches it. */
  url: string;
  before: AnthropicTurn[];
}

function framesCarryNoSecret(setup: () => { h: EngineHarness; site: Site }): void {
  let h: EngineHarness;
  let runId: string;
  const held = hold(toolUse('browser', { action: 'read_text' }));

  beforeAll(async () => {
    const { h: harness, site } = setup();
    h = harness;
    const connections = [
      { name: 'shop', type: 'token', secret: PASSWORD },
      { name: 'bank', type: 'totp', secret: SEED },
    ];
    for (const body of connections) expect((await h.daemon.api('POST', '/v1/connections', body)).status).toBe(201);
    h.model.script([
      ...site.before,
      toolUse('browser', { action: 'navigate', url: site.url }),
      toolUse('browser', { action: 'type', selector: '#pw', text: '{{secret:shop}}' }),
      toolUse('browser', { action: 'type', selector: '#otp', text: '{{totp:bank}}', submit: true }),
      held,
      toolUse('finish', { result: { done: true }, confidence: 'high' }),
    ]);
    runId = await createRun(h.daemon, { prompt: 'Sign in on the test page.' });
    await held.arrived;
  }, 120_000);

  afterAll(() => held.release());

  it("gives frames whose url holds neither the typed password nor the typed code, but the run's masks", async () => {
    const token = new URL((await h.daemon.api('GET', `/v1/runs/${runId}`)).body.live_url).searchParams.get('token')!;
    const url = await landedFrameUrl(h.daemon.url, runId, token);
    expect(url).toMatch(/\/landing\.html\?pw=\[secret:shop\]&otp=\[totp:bank\]$/);
    for (const form of secretForms(PASSWORD)) expect(url.includes(form), `the url holds the password as ${form}`).toBe(false);
    expect(url).not.toMatch(/(?<![0-9])[0-9]{6}(?![0-9])/);
    held.release();
    expect((await waitForRun(h.daemon, runId, undefined, 60_000)).status).toBe('succeeded');
  });
}

/** Reads the run's frames with its live link until one shows the landing page; answers that frame's url. */
async function landedFrameUrl(base: string, runId: string, token: string): Promise<string> {
  const stop = new AbortController();
  const response = await fetch(`${base}/v1/runs/${runId}/live/frames`, { headers: { authorization: `Bearer ${token}` }, signal: stop.signal });
  expect(response.status).toBe(200);
  const frame = await frameWhere(response, stop, (f) => f.url?.includes('/landing.html') === true, 'a frame of the landing page');
  return frame.url!;
}

const FORM_PAGE = `<!doctype html><title>Sign in</title><body>
<form action="/landing.html" method="get"><input id="pw" name="pw"><input id="otp" name="otp"><button>Go</button></form></body>`;
const LANDING_PAGE = '<!doctype html><title>Landed</title><body><h1>Landed</h1></body>';

describe('the frames of a run on the local driver', () => {
  let pages: Awaited<ReturnType<typeof servePages>>;
  let h: EngineHarness;

  beforeAll(async () => {
    pages = await servePages((req, res) => {
      const page = req.url?.startsWith('/landing.html') === true ? LANDING_PAGE : FORM_PAGE;
      res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    });
    h = await startEngine();
  });

  afterAll(async () => {
    await h?.close();
    await pages?.close();
  });

  framesCarryNoSecret(() => ({ h, site: { url: `${pages.url}/form.html`, before: [] } }));
});

describe.skipIf(!docker.available)('the frames of a run on the docker driver', () => {
  const PORT = 8000;
  let h: EngineHarness;

  beforeAll(async () => {
    h = await startEngine({ env: { ERRAND_SANDBOX_DRIVER: 'docker', ERRAND_SANDBOX_IMAGE: docker.image, ERRAND_SANDBOX_WARM_POOL_SIZE: '1' } });
  });

  afterAll(async () => {
    await h?.close();
  });

  // A Docker sandbox cannot reach the host's ports: the site is served inside it.
  const serve =
    `mkdir -p site && cat > site/form.html <<'EOF'\n${FORM_PAGE}\nEOF\ncat > site/landing.html <<'EOF'\n${LANDING_PAGE}\nEOF\n` +
    `cd site && nohup python3 -m http.server ${PORT} --bind 127.0.0.1 >/dev/null 2>&1 &\n` +
    `for i in $(seq 100); do (echo > /dev/tcp/127.0.0.1/${PORT}) 2>/dev/null && echo serving && break; sleep 0.1; done`;
  framesCarryNoSecret(() => ({ h, site: { url: `http://127.0.0.1:${PORT}/form.html`, before: [toolUse('run_code', { language: 'bash', code: serve })] } }));
});
