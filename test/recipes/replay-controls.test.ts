/**
 * Replay of the browser's newer actions, end to end on the local driver: a job whose agent hovers to open a menu,
 * chooses in a select, drags a list item, follows a link to a new tab and switches tabs, all by the snapshot's
 * references, records a recipe that finds each element again by the role and name (or text) the snapshot showed;
 * the next runs replay it with no model call. A run that clicked at a point makes no recipe, and says why.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolResults, toolUse, type AnthropicRequest } from '../fixtures/scripted-anthropic.js';
import { servePages, startEngine, waitForRun, type EngineHarness } from '../engine/harness.js';

const ORDER = `<!doctype html><title>Order</title>
<nav><span onmouseenter="document.getElementById('extras').style.display = 'block'">Options</span>
  <div id="extras" style="display:none"><a href="#" onclick="gift = true; update(); return false">Gift wrap</a></div></nav>
<label>Size <select id="size" onchange="update()"><option value="">Choose</option><option value="s">Small</option><option value="m">Medium</option><option value="l">Large</option></select></label>
<p>Delivery priority (drag to reorder):</p>
<ul id="priority">${['Standard', 'Express', 'Pickup'].map((name) => `<li draggable="true" style="padding:4px;border:1px solid #999;width:160px">${name}</li>`).join('')}</ul>
<a id="review" href="/review" target="_blank">Review order</a>
<script>
let gift = false;
let dragged = null;
function update() {
  const size = document.getElementById('size');
  const first = document.querySelector('#priority li').textContent;
  document.getElementById('review').href = '/review?' + new URLSearchParams({ size: size.selectedOptions[0].textContent, first, gift: String(gift) });
}
for (const li of document.querySelectorAll('#priority li')) {
  li.addEventListener('dragstart', () => { dragged = li; });
  li.addEventListener('dragover', (e) => e.preventDefault());
  li.addEventListener('drop', (e) => { e.preventDefault(); li.parentNode.insertBefore(dragged, li); update(); });
}
update();
</script>`;

const reviewPage = (q: URLSearchParams): string =>
  `<!doctype html><title>Review</title><h1>Your order</h1><p>Size: ${q.get('size')}</p><p>First: ${q.get('first')}</p><p>Gift wrap: ${q.get('gift') === 'true' ? 'yes' : 'no'}</p>`;

const orderSchema = {
  type: 'object',
  required: ['size', 'first'],
  additionalProperties: false,
  properties: { size: { type: 'string' }, first: { type: 'string' } },
};

/** The line of a snapshot that shows `line`, and its reference. */
const refIn = (snapshot: string, line: string): string => {
  const found = new RegExp(`- ${line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?: \\[[^\\]]*\\])*? \\[ref=([a-z0-9]+)\\]`).exec(snapshot)?.[1];
  if (found === undefined) throw new Error(`no ${line} in ${snapshot}`);
  return found;
};
const lastText = (request: AnthropicRequest): string => toolResults(request)[0]!.text;

describe('a job that hovers, selects, drags and switches tabs, by references', () => {
  let h: EngineHarness;
  let site: Awaited<ReturnType<typeof servePages>>;
  let jobId: string;
  const reviews: string[] = [];

  const runJob = async (inputs: Record<string, unknown>): Promise<any> => {
    const res = await h.daemon.api('POST', `/v1/jobs/${jobId}/runs`, { inputs });
    expect(res.status).toBe(202);
    return waitForRun(h.daemon, res.body.task_id, undefined, 60_000);
  };

  beforeAll(async () => {
    site = await servePages((req: IncomingMessage, res: ServerResponse) => {
      const url = new URL(req.url ?? '/', 'http://site');
      if (url.pathname === '/review') {
        reviews.push(url.search);
        return void res.writeHead(200, { 'content-type': 'text/html' }).end(reviewPage(url.searchParams));
      }
      res.writeHead(200, { 'content-type': 'text/html' }).end(ORDER);
    });
    h = await startEngine();
    const projectId = (await h.daemon.api('POST', '/v1/projects', { name: 'Controls' })).body.id;
    const job = await h.daemon.api('POST', '/v1/jobs', {
      project_id: projectId,
      name: 'order',
      prompt: `Order at ${site.url}/order in size {{size}}, gift-wrapped, Express first; give the size and first delivery option the review shows.`,
      input_schema: { type: 'object', required: ['size'], properties: { size: { type: 'string' } } },
      output_schema: orderSchema,
      replay: 'auto',
    });
    expect(job.status).toBe(201);
    jobId = job.body.id;
    h.model.script([
      toolUse('browser', { action: 'navigate', url: `${site.url}/order` }),
      toolUse('browser', { action: 'hover', text: 'Options' }),
      toolUse('browser', { action: 'snapshot' }),
      (r: AnthropicRequest) => toolUse('browser', { action: 'click', ref: refIn(lastText(r), 'link "Gift wrap"') }),
      toolUse('browser', { action: 'snapshot' }),
      (r: AnthropicRequest) => {
        const snapshot = lastText(r);
        return [
          toolUse('browser', { action: 'select', ref: refIn(snapshot, 'combobox "Size"'), values: ['Large'] }),
          toolUse('browser', { action: 'drag', ref: /- listitem \[ref=(e\d+)\]: Express/.exec(snapshot)![1]!, to_ref: /- listitem \[ref=(e\d+)\]: Standard/.exec(snapshot)![1]! }),
          toolUse('browser', { action: 'click', ref: refIn(snapshot, 'link "Review order"') }),
        ];
      },
      toolUse('browser', { action: 'tab', index: 0 }),
      toolUse('browser', { action: 'tab', index: 1 }),
      toolUse('browser', { action: 'read_text' }),
      toolUse('finish', { result: { size: 'Large', first: 'Express' }, confidence: 'high', matched_text: 'Size: Large' }),
    ]);
    const run = await runJob({ size: 'Large' });
    expect(run, JSON.stringify(run)).toMatchObject({ status: 'succeeded', mode: 'agent' });
  }, 120_000);

  afterAll(async () => {
    await h?.close();
    await site?.close();
  });

  it('did what the agent asked: the review shows Large, Express first, gift-wrapped', () => {
    expect(reviews).toEqual(['?size=Large&first=Express&gift=true']);
  });

  it('records each element by the role and name, or the text, its reference showed, and the input as a placeholder', async () => {
    const recipe = (await h.daemon.api('GET', `/v1/jobs/${jobId}/recipe`)).body;
    expect(recipe.steps.map((s: any) => s.action)).toEqual(['navigate', 'hover', 'click', 'select', 'drag', 'click', 'tab', 'tab']);
    const [, hover, gift, select, drag, review, back, forth] = recipe.steps;
    expect(hover.locators).toEqual([{ kind: 'text', text: 'Options' }]);
    expect(gift.locators).toEqual([{ kind: 'role', selector: 'role=link[name="Gift wrap"]' }]);
    expect(select).toMatchObject({ locators: [{ kind: 'role', selector: 'role=combobox[name="Size"]' }], values: ['{{size}}'] });
    expect(drag).toMatchObject({ locators: [{ kind: 'text', text: 'Express' }], to_locators: [{ kind: 'text', text: 'Standard' }] });
    expect(review.locators).toEqual([{ kind: 'role', selector: 'role=link[name="Review order"]' }]);
    expect([back, forth]).toEqual([
      { tool: 'browser', action: 'tab', index: 0, page: null },
      { tool: 'browser', action: 'tab', index: 1, page: null },
    ]);
    expect(JSON.stringify(recipe)).not.toContain('Large');
  });

  it('replays them for another size with no model call', async () => {
    const before = h.model.requests.length;
    const run = await runJob({ size: 'Small' });
    expect(h.model.requests.length).toBe(before);
    expect(run).toMatchObject({ status: 'succeeded', mode: 'replay', result: { size: 'Small', first: 'Express' } });
    expect(reviews.at(-1)).toBe('?size=Small&first=Express&gift=true');
    const steps = (await h.daemon.api('GET', `/v1/runs/${run.task_id}/steps`)).body.data.map((s: any) => s.name);
    expect(steps).toEqual(expect.arrayContaining(['replay.browser.hover', 'replay.browser.select', 'replay.browser.drag', 'replay.browser.tab']));
  });

  it('makes no recipe of a run that clicked at a point, and says why in its warnings', async () => {
    const other = await h.daemon.api('POST', '/v1/jobs', {
      project_id: (await h.daemon.api('GET', '/v1/projects')).body.data[0].id,
      name: 'point',
      prompt: `Open ${site.url}/order and click the review link.`,
      output_schema: { type: 'object', required: ['ok'], properties: { ok: { type: 'boolean' } } },
      replay: 'auto',
    });
    h.model.script([
      toolUse('browser', { action: 'navigate', url: `${site.url}/order` }),
      toolUse('browser', { action: 'click', x: 5, y: 5 }),
      toolUse('finish', { result: { ok: true }, confidence: 'high' }),
    ]);
    const res = await h.daemon.api('POST', `/v1/jobs/${other.body.id}/runs`, { inputs: {} });
    const run = await waitForRun(h.daemon, res.body.task_id, undefined, 60_000);
    expect(run.status).toBe('succeeded');
    expect((await h.daemon.api('GET', `/v1/jobs/${other.body.id}/recipe`)).status).toBe(404);
    expect(run.warnings).toContain('replay: no recipe was recorded from this run: the run acted at the point 5,5 of the page, and a replay cannot know the page is laid out the same');
  });
});
