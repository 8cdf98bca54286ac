/**
 * Replay on the docker driver (issue 24): a job whose first run serves its shop inside the sandbox with a code step
 * and reads a product page is recorded; the next run, for another product, replays the code step and the page in a
 * new container with no model call; a job that uploads the run's input file on a form is replayed with the next run's
 * own file. A sandbox cannot reach the host's ports, so the sites live in the sandbox.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dockerAvailability } from '../fixtures/docker.js';
import { toolUse } from '../fixtures/scripted-anthropic.js';
import { startEngine, waitForRun, type EngineHarness } from '../engine/harness.js';

const docker = await dockerAvailability();
const PORT = 8000;

/** Writes the shop's product pages (SKU-100, SKU-200, made from numbers: no input's value is in the program) and serves them. */
const SERVE = [
  'mkdir -p site/product && python3 - <<\'PY\'',
  "for i, (name, price) in enumerate([('Blue Mug', 12.5), ('Red Kettle', 30)]):",
  "    page = '<!doctype html><title>' + name + '</title><p>Errand Shop</p><h1>' + name + '</h1><p>Price: $' + format(price, '.2f') + '</p>'",
  "    open('site/product/SKU-' + str((i + 1) * 100) + '.html', 'w').write(page)",
  'PY',
  `cd site && nohup python3 -m http.server ${PORT} --bind 127.0.0.1 >/dev/null 2>&1 &`,
  `for i in $(seq 100); do (echo > /dev/tcp/127.0.0.1/${PORT}) 2>/dev/null && echo serving && break; sleep 0.1; done`,
].join('\n');

/** A claim form served in the sandbox (Python): it answers how many bytes of the uploaded receipt it received. */
const CLAIM_PORT = 8001;
const SERVE_CLAIM = [
  "mkdir -p claim && cat > claim/site.py <<'PY'",
  'import http.server',
  'from email.parser import BytesParser',
  'from email.policy import default',
  'FORM = b\'<!doctype html><title>New claim</title><h1>New claim</h1><form method="post" enctype="multipart/form-data" action="/claim"><input type="file" id="doc" name="doc"><button type="submit" id="send">Send claim</button></form>\'',
  'class Handler(http.server.BaseHTTPRequestHandler):',
  '    def do_GET(self):',
  "        self.send_response(200); self.send_header('content-type', 'text/html'); self.end_headers(); self.wfile.write(FORM)",
  '    def do_POST(self):',
  "        body = self.rfile.read(int(self.headers['content-length']))",
  "        msg = BytesParser(policy=default).parsebytes(b'content-type: ' + self.headers['content-type'].encode() + b'\\r\\n\\r\\n' + body)",
  '        data = next(p for p in msg.iter_parts() if p.get_filename()).get_payload(decode=True)',
  "        self.send_response(200); self.send_header('content-type', 'text/html'); self.end_headers()",
  "        self.wfile.write(('<!doctype html><title>Claim received</title><p>Receipt: %d bytes</p>' % len(data)).encode())",
  `http.server.HTTPServer(('127.0.0.1', ${CLAIM_PORT}), Handler).serve_forever()`,
  'PY',
  'nohup python3 claim/site.py >/dev/null 2>&1 &',
  `for i in $(seq 100); do (echo > /dev/tcp/127.0.0.1/${CLAIM_PORT}) 2>/dev/null && echo serving && break; sleep 0.1; done`,
].join('\n');

describe.skipIf(!docker.available)('replay in a docker sandbox', () => {
  let h: EngineHarness;
  let jobId: string;

  beforeAll(async () => {
    h = await startEngine({ env: { ERRAND_SANDBOX_DRIVER: 'docker', ERRAND_SANDBOX_IMAGE: docker.image, ERRAND_SANDBOX_WARM_POOL_SIZE: '1' } });
    const projectId = (await h.daemon.api('POST', '/v1/projects', { name: 'Replay in docker' })).body.id;
    jobId = (
      await h.daemon.api('POST', '/v1/jobs', {
        project_id: projectId,
        name: 'sandbox shop',
        prompt: 'Serve the shop in your sandbox, then give the name and price of product {{sku}}.',
        input_schema: { type: 'object', required: ['sku'], properties: { sku: { type: 'string' } } },
        output_schema: { type: 'object', required: ['name', 'price'], properties: { name: { type: 'string' }, price: { type: 'number' } } },
        replay: 'auto',
      })
    ).body.id;
  }, 120_000);

  afterAll(async () => {
    await h?.close();
  });

  it('records the first run and replays the code and browser steps for another product with no model call', async () => {
    h.model.script([
      toolUse('run_code', { language: 'bash', code: SERVE }),
      toolUse('browser', { action: 'navigate', url: `http://127.0.0.1:${PORT}/product/SKU-100.html` }),
      toolUse('browser', { action: 'read_text' }),
      toolUse('finish', { result: { name: 'Blue Mug', price: 12.5 }, confidence: 'high' }),
    ]);
    const first = (await h.daemon.api('POST', `/v1/jobs/${jobId}/runs`, { inputs: { sku: 'SKU-100' } })).body.task_id;
    expect(await waitForRun(h.daemon, first, undefined, 120_000)).toMatchObject({ status: 'succeeded', mode: 'agent' });
    const recipe = (await h.daemon.api('GET', `/v1/jobs/${jobId}/recipe`)).body;
    expect(recipe.steps.map((s: any) => s.tool)).toEqual(['code', 'browser']);
    expect(recipe.steps[1].url).toBe(`http://127.0.0.1:${PORT}/product/{{sku}}.html`);

    const before = h.model.requests.length;
    const second = (await h.daemon.api('POST', `/v1/jobs/${jobId}/runs`, { inputs: { sku: 'SKU-200' } })).body.task_id;
    const run = await waitForRun(h.daemon, second, undefined, 120_000);
    expect(h.model.requests.length).toBe(before);
    expect(run).toMatchObject({ status: 'succeeded', mode: 'replay', result: { name: 'Red Kettle', price: 30 } });
    expect(run.usage).toMatchObject({ input_tokens: 0, output_tokens: 0 });
    expect(run.evidence.screenshot_url).not.toBeNull();
  }, 240_000);

  it("replays an upload with the next run's own input file, and keeps neither file's name nor content", async () => {
    const projectId = (await h.daemon.api('POST', '/v1/projects', { name: 'Replay uploads in docker' })).body.id;
    const claimJob = (
      await h.daemon.api('POST', '/v1/jobs', {
        project_id: projectId,
        name: 'sandbox claim',
        prompt: 'Serve the claim form in your sandbox, send it with the receipt you were given, and say how many bytes it received.',
        output_schema: { type: 'object', required: ['bytes'], properties: { bytes: { type: 'integer' } } },
        replay: 'auto',
      })
    ).body.id;
    const fileOf = async (name: string, content: string): Promise<string> => {
      const res = await fetch(`${h.daemon.url}/v1/files?name=${encodeURIComponent(name)}`, { method: 'POST', headers: { authorization: `Bearer ${h.daemon.key}`, 'content-type': 'text/plain' }, body: content });
      return ((await res.json()) as { id: string }).id;
    };
    const first = 'first receipt, FIRST-DOCKER-CONTENT';
    const second = 'the second receipt is longer: SECOND-DOCKER-CONTENT';
    h.model.script([
      toolUse('run_code', { language: 'bash', code: SERVE_CLAIM }),
      toolUse('browser', { action: 'navigate', url: `http://127.0.0.1:${CLAIM_PORT}/claim` }),
      toolUse('browser', { action: 'upload', selector: '#doc', files: ['receipt-first.txt'] }),
      toolUse('browser', { action: 'click', selector: '#send' }),
      toolUse('browser', { action: 'read_text' }),
      toolUse('finish', { result: { bytes: first.length }, confidence: 'high' }),
    ]);
    const recorded = (await h.daemon.api('POST', `/v1/jobs/${claimJob}/runs`, { inputs: {}, files: [await fileOf('receipt-first.txt', first)] })).body.task_id;
    expect(await waitForRun(h.daemon, recorded, undefined, 120_000)).toMatchObject({ status: 'succeeded', mode: 'agent' });
    const recipe = JSON.stringify((await h.daemon.api('GET', `/v1/jobs/${claimJob}/recipe`)).body);
    expect(recipe).toContain('"files":[{"index":0,"content_type":"text/plain"}]');
    expect(recipe).not.toContain('FIRST-DOCKER-CONTENT');
    expect(recipe).not.toContain('receipt-first');

    const before = h.model.requests.length;
    const replayed = (await h.daemon.api('POST', `/v1/jobs/${claimJob}/runs`, { inputs: {}, files: [await fileOf('receipt-second.txt', second)] })).body.task_id;
    const run = await waitForRun(h.daemon, replayed, undefined, 120_000);
    expect(h.model.requests.length).toBe(before);
    expect(run).toMatchObject({ status: 'succeeded', mode: 'replay', result: { bytes: second.length } });
    expect(JSON.stringify((await h.daemon.api('GET', `/v1/jobs/${claimJob}/recipe`)).body)).not.toContain('SECOND-DOCKER-CONTENT');
  }, 240_000);
});
