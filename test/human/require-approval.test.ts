/**
 * A job that requires approval before the final submit (issue 22, item 4): until a person approved a request_human of
 * kind approve, the browser refuses what would submit a form (a click on a submit control, Enter in a form's field)
 * with a result telling the agent to ask; other clicks go through; after the approval the submission reaches the
 * site. Driven by a scripted agent against a local shop in the sandbox's Chromium.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servePages, startEngine, until, waitForRun, type EngineHarness } from '../engine/harness.js';
import { toolResults, toolUse } from '../fixtures/scripted-anthropic.js';

let h: EngineHarness;
let shop: Awaited<ReturnType<typeof servePages>>;
const orders: string[] = [];

const ORDER_PAGE = `<!doctype html><title>Checkout</title><body>
<form method="post" action="/placed"><input id="qty" name="qty" value="1">
<button type="button" id="recalc" onclick="document.title='Recalculated'">Recalculate</button>
<button id="place"><span>Place order</span></button></form></body>`;

beforeAll(async () => {
  shop = await servePages((req, res) => {
    if (req.method === 'POST' && req.url === '/placed') {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        orders.push(body);
        res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Thanks</title><p>Order placed</p>');
      });
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end(ORDER_PAGE);
  });
  h = await startEngine();
});

afterAll(async () => {
  await h?.close();
  await shop?.close();
});

describe('require_approval', () => {
  it("holds a job's form submissions until a person approves, and tells the agent to ask", async () => {
    const project = (await h.daemon.api('POST', '/v1/projects', { name: 'Shop' })).body;
    const job = await h.daemon.api('POST', '/v1/jobs', { project_id: project.id, name: 'Order', prompt: 'Order one', require_approval: true, human_timeout_s: 120 });
    expect(job.status).toBe(201);
    expect(job.body).toMatchObject({ require_approval: true, human_timeout_s: 120, human_email: null });

    const start = h.model.requests.length;
    const results = (n: number) => toolResults(h.model.requests[start + n]!)[0]!;
    h.model.script([
      toolUse('browser', { action: 'navigate', url: `${shop.url}/order` }),
      toolUse('browser', { action: 'type', selector: '#qty', text: '2', submit: true }),
      toolUse('browser', { action: 'click', text: 'Place order' }),
      toolUse('browser', { action: 'press', key: 'Enter' }),
      toolUse('browser', { action: 'click', selector: '#recalc' }),
      toolUse('request_human', { kind: 'approve', question: 'Place the order for 2?' }),
      toolUse('browser', { action: 'click', text: 'Place order' }),
      toolUse('finish', { result: { placed: true }, confidence: 'high', matched_text: 'Order placed' }),
    ]);
    const runId = (await h.daemon.api('POST', `/v1/jobs/${job.body.id}/runs`, {})).body.task_id as string;
    const waiting = await until('the approval request', async () => (await h.daemon.api('GET', `/v1/runs/${runId}`)).body.waiting_for);
    expect(waiting).toMatchObject({ kind: 'approve', question: 'Place the order for 2?' });
    // The job's human_timeout_s, not the installation's default.
    expect(Date.parse(waiting.expires_at) - Date.parse(waiting.asked_at)).toBe(120_000);

    const held = "would submit a form, and this run needs a person's approval first: ask with request_human (kind approve), then try again";
    for (const [n, what] of [[2, 'pressing Enter in this field'], [3, 'this click'], [4, 'pressing Enter here']] as const) {
      expect(results(n)).toMatchObject({ isError: true });
      expect(results(n).text).toContain(`held: ${what} ${held}`);
    }
    expect(results(5)).toMatchObject({ isError: false });
    expect(results(5).text).toContain('Recalculated');
    expect(orders).toEqual([]);

    expect((await h.daemon.api('POST', `/v1/runs/${runId}/human`, { request_id: waiting.request_id, approved: true })).status).toBe(200);
    const run = await waitForRun(h.daemon, runId);
    expect(run).toMatchObject({ status: 'succeeded', job_id: job.body.id });
    expect(results(7)).toMatchObject({ isError: false });
    expect(orders).toEqual(['qty=2']);
  });
});
