/**
 * A person in the loop on the docker driver (issue 22, item 4): the supervisor inside the container holds a form
 * submission of a run that requires approval, the agent asks, a person approves through the API, and the submission
 * then goes through. The page is served inside the run's own sandbox (a sandbox cannot reach the host's ports).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRun, startEngine, until, waitForRun, type EngineHarness } from '../engine/harness.js';
import { dockerAvailability } from '../fixtures/docker.js';
import { toolResults, toolUse, type AnthropicRequest } from '../fixtures/scripted-anthropic.js';

const docker = await dockerAvailability();
const PAGE_PORT = 8000;
const ORDER_PAGE = `<!doctype html><title>Checkout</title><body>
<form method="get" action="/placed.html"><input id="qty" name="qty" value="3"><button id="place">Place order</button></form></body>`;
const PLACED_PAGE = '<!doctype html><title>Thanks</title><p>Order placed</p>';

describe.skipIf(!docker.available)('request_human and require_approval on the docker driver', () => {
  let h: EngineHarness;

  beforeAll(async () => {
    h = await startEngine({ env: { ERRAND_SANDBOX_DRIVER: 'docker', ERRAND_SANDBOX_IMAGE: docker.image, ERRAND_SANDBOX_WARM_POOL_SIZE: '0' } });
  });

  afterAll(async () => {
    await h?.close();
  });

  it('holds the submission in the container until a person approves, then submits', async () => {
    const serve =
      `mkdir -p site && cat > site/order.html <<'EOF'\n${ORDER_PAGE}\nEOF\ncat > site/placed.html <<'EOF'\n${PLACED_PAGE}\nEOF\n` +
      `cd site && nohup python3 -m http.server ${PAGE_PORT} --bind 127.0.0.1 >/dev/null 2>&1 &\n` +
      `for i in $(seq 100); do (echo > /dev/tcp/127.0.0.1/${PAGE_PORT}) 2>/dev/null && echo serving && break; sleep 0.1; done`;
    const results: string[] = [];
    const seen = (turn: ReturnType<typeof toolUse>) => (request: AnthropicRequest) => {
      results.push(toolResults(request)[0]?.text ?? '');
      return turn;
    };
    h.model.script([
      toolUse('run_code', { language: 'bash', code: serve }),
      seen(toolUse('browser', { action: 'navigate', url: `http://127.0.0.1:${PAGE_PORT}/order.html` })),
      seen(toolUse('browser', { action: 'click', selector: '#place' })),
      seen(toolUse('request_human', { kind: 'approve', question: 'Order 3?' })),
      seen(toolUse('browser', { action: 'click', selector: '#place' })),
      seen(toolUse('finish', { result: { placed: true }, confidence: 'high', matched_text: 'Order placed' })),
    ]);
    const runId = await createRun(h.daemon, { prompt: 'Order three', require_approval: true });
    const waiting = await until('the approval request', async () => (await h.daemon.api('GET', `/v1/runs/${runId}`)).body.waiting_for, 60_000);
    expect(results[0]).toContain('serving');
    expect(results[2]).toContain("held: this click would submit a form, and this run needs a person's approval first");
    expect((await h.daemon.api('POST', `/v1/runs/${runId}/human`, { request_id: waiting.request_id, approved: true })).status).toBe(200);
    expect(await waitForRun(h.daemon, runId, undefined, 60_000)).toMatchObject({ status: 'succeeded' });
    expect(results[3]).toMatch(/^A person APPROVED/);
    expect(results[4]).toContain('placed.html?qty=3');
  });
});
