/**
 * Replay on the docker driver (issue 24): a job whose first run serves its shop inside the sandbox with a code step
 * and reads a product page is recorded; the next run, for another product, replays the code step and the page in a
 * new container with no model call. A sandbox cannot reach the host's ports, so the site lives in the sandbox.
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
});
