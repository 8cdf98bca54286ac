/**
 * Replay (issue 24), end to end on the local driver: a job's first run, by the scripted agent, records a recipe;
 * later runs with other inputs replay it while the model answers nothing (every request would be counted), and
 * return the right results; a changed page hands the run to the agent at the step that no longer fits, and the
 * run that succeeds records the next version; a recipe holds no input's value; an upload is replayed with the next
 * run's own file, by its place among the run's files, and a run without such a file goes to the agent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolUse, type AnthropicRequest } from '../fixtures/scripted-anthropic.js';
import { startEngine, stepsOf, waitForRun, type EngineHarness } from '../engine/harness.js';
import { startTestSites, type TestSites } from './test-sites.js';
import { evalEnded } from '../evals/harness.js';

let h: EngineHarness;
let sites: TestSites;
let projectId: string;

beforeAll(async () => {
  sites = await startTestSites();
  h = await startEngine();
  projectId = (await h.daemon.api('POST', '/v1/projects', { name: 'Replay' })).body.id;
});

afterAll(async () => {
  await h?.close();
  await sites?.close();
});

async function createJob(body: Record<string, unknown>): Promise<string> {
  const res = await h.daemon.api('POST', '/v1/jobs', { project_id: projectId, ...body });
  expect(res.status).toBe(201);
  return res.body.id;
}

async function runJob(jobId: string, inputs: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<any> {
  const res = await h.daemon.api('POST', `/v1/jobs/${jobId}/runs`, { inputs, ...extra });
  expect(res.status).toBe(202);
  return waitForRun(h.daemon, res.body.task_id, undefined, 60_000);
}

/** Runs a job with no model turn scripted: any model call would fail the run and be counted. */
async function replayJob(jobId: string, inputs: Record<string, unknown>): Promise<{ run: any; modelCalls: number }> {
  const before = h.model.requests.length;
  const run = await runJob(jobId, inputs);
  return { run, modelCalls: h.model.requests.length - before };
}

async function recipeOf(jobId: string): Promise<any> {
  const res = await h.daemon.api('GET', `/v1/jobs/${jobId}/recipe`);
  expect(res.status).toBe(200);
  return res.body;
}

/** The first user message of a model request: the task, and a replay's handover when the agent took over. */
function firstMessageText(request: AnthropicRequest): string {
  const content = request.body.messages[0]!.content;
  return typeof content === 'string' ? content : content.map((b: any) => b.text ?? '').join('\n');
}

const shopSchema = {
  type: 'object',
  required: ['name', 'price'],
  additionalProperties: false,
  properties: { name: { type: 'string' }, price: { type: 'number' } },
};

describe('a shop job: search, open the product, read name and price', () => {
  let jobId: string;
  let first: any;

  beforeAll(async () => {
    jobId = await createJob({
      name: 'price check',
      prompt: `Find the product {{sku}} in the shop at ${sites.url}/shop and give its name and price.`,
      input_schema: { type: 'object', required: ['sku'], properties: { sku: { type: 'string' } } },
      output_schema: shopSchema,
      replay: 'auto',
    });
    h.model.script([
      toolUse('browser', { action: 'navigate', url: `${sites.url}/shop` }),
      toolUse('browser', { action: 'type', selector: '#q', text: 'A-100', submit: true }),
      toolUse('browser', { action: 'click', selector: 'a.result' }),
      toolUse('browser', { action: 'read_text' }),
      toolUse('finish', { result: { name: 'Blue Mug', price: 12.5 }, confidence: 'high', matched_text: 'Price: $12.50' }),
    ]);
    first = await runJob(jobId, { sku: 'A-100' });
  });

  it('runs the agent the first time and records a recipe from its success', async () => {
    expect(first).toMatchObject({ status: 'succeeded', mode: 'agent', result: { name: 'Blue Mug', price: 12.5 } });
    expect(first.usage.input_tokens).toBeGreaterThan(0);
    const recipe = await recipeOf(jobId);
    expect(recipe).toMatchObject({ object: 'recipe', job_id: jobId, version: 1, source_run_id: first.task_id, format: 1 });
    expect(recipe.steps.map((s: any) => s.action)).toEqual(['navigate', 'type', 'click']);
    // The field by its role and exact name first (the page had no other of that name), then the agent's selector.
    expect(recipe.steps[1]).toMatchObject({ text: '{{sku}}', submit: true, locators: [{ kind: 'role', selector: 'role=textbox[name="Search products"s]' }, { kind: 'css', selector: '#q' }] });
    expect(recipe.steps[1].page).toEqual({ url: `${sites.url}/shop`, title: 'Errand Shop', key_text: [] });
    expect(recipe.steps[2].page).toEqual({ url: `${sites.url}/search?q=*`, title: 'Search - Errand Shop', key_text: [] });
    expect(recipe.extraction).toEqual({
      name: { from: 'page_text', type: 'string', prefix: '', suffix: '', before: 'Errand Shop' },
      price: { from: 'page_text', type: 'number', prefix: 'Price: $', suffix: '', before: null },
    });
    expect(JSON.stringify(recipe)).not.toContain('A-100');
  });

  it('replays the recipe for other products with no model call, and returns their results', async () => {
    for (const [sku, result] of [['B-200', { name: 'Red Kettle', price: 30 }], ['C-300', { name: 'Green Teapot', price: 1249.99 }]] as const) {
      const { run, modelCalls } = await replayJob(jobId, { sku });
      expect(modelCalls).toBe(0);
      expect(run).toMatchObject({ status: 'succeeded', mode: 'replay', result, confidence: 'medium', warnings: [] });
      // No model cost: cost_usd is the sandbox's time alone.
      expect(run.usage).toMatchObject({ input_tokens: 0, output_tokens: 0 });
      expect(run.evidence.screenshot_url).not.toBeNull();
      expect(run.evidence.matched_text).toContain(`Price: $${result.price.toFixed(2)}`);
    }
    expect((await recipeOf(jobId)).version).toBe(1);
  });

  it('records replayed steps as replay steps, with the placeholder rather than the value typed', async () => {
    const { run } = await replayJob(jobId, { sku: 'B-200' });
    const steps = await stepsOf(h.daemon, run.task_id);
    expect(steps.map((s) => s.name)).toEqual(['replay.browser.navigate', 'replay.browser.type', 'replay.browser.click', 'replay.extract', 'browser.screenshot']);
    expect(steps[1].input).toMatchObject({ text: '{{sku}}' });
    expect(JSON.stringify(steps.map((s) => s.input))).not.toContain('B-200');
  });

  it("runs an eval's cases as replays of the recipe, with no model call, and grades their results", async () => {
    const before = h.model.requests.length;
    const created = await h.daemon.api('POST', `/v1/jobs/${jobId}/evals`, {
      replay: 'auto',
      cases: [
        { name: 'kettle', inputs: { sku: 'B-200' }, expect: { equals: { name: 'Red Kettle', price: 30 } } },
        { name: 'teapot', inputs: { sku: 'C-300' }, expect: { members: { price: { range: { max: 1000 } } } } },
      ],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    expect(created.body.replay).toBe('auto');
    const evaluated = await evalEnded(h.daemon, created.body.id);
    expect(evaluated.cases.map((c: any) => [c.label, c.status, c.mode, c.usage.input_tokens, c.differences])).toEqual([
      ['kettle', 'passed', 'replay', 0, []],
      ['teapot', 'failed', 'replay', 0, [{ path: 'result.price', expected: 'a number of at most 1000', got: '1249.99' }]],
    ]);
    expect(h.model.requests.length).toBe(before);
    expect((await recipeOf(jobId)).version).toBe(1);
  });

  it('hands over to the agent when the result no longer reads as recorded, and records the next version', async () => {
    sites.shopLayout = 'cost';
    const before = h.model.requests.length;
    h.model.script([
      toolUse('browser', { action: 'read_text' }),
      toolUse('finish', { result: { name: 'Red Kettle', price: 30 }, confidence: 'high', matched_text: 'Cost: 30.00 USD' }),
    ]);
    const run = await runJob(jobId, { sku: 'B-200' });
    expect(run).toMatchObject({ status: 'succeeded', mode: 'replay_then_agent', result: { name: 'Red Kettle', price: 30 } });
    expect(run.usage.input_tokens).toBeGreaterThan(0);
    const requests = h.model.requests.slice(before);
    expect(requests).toHaveLength(2);
    // The agent starts where the replay stopped, told what was done: it does not search again.
    const handover = firstMessageText(requests[0]!);
    expect(handover).toContain('started as a replay');
    expect(handover).toContain('reading the result');
    expect(handover).toMatch(/1\. navigate to .*: done/);
    expect(handover).toContain(`/product/2`);
    const recipe = await recipeOf(jobId);
    expect(recipe.version).toBe(2);
    expect(recipe.source_run_id).toBe(run.task_id);
    expect(recipe.extraction.price).toEqual({ from: 'page_text', type: 'number', prefix: 'Cost: ', suffix: ' USD', before: null });

    const { run: next, modelCalls } = await replayJob(jobId, { sku: 'C-300' });
    expect(modelCalls).toBe(0);
    expect(next).toMatchObject({ status: 'succeeded', mode: 'replay', result: { name: 'Green Teapot', price: 1249.99 } });
  });

  it('runs the agent for a run that asks for replay off', async () => {
    h.model.script([
      toolUse('browser', { action: 'navigate', url: `${sites.url}/product/1` }),
      toolUse('browser', { action: 'read_text' }),
      toolUse('finish', { result: { name: 'Blue Mug', price: 12.5 }, confidence: 'high' }),
    ]);
    const run = await runJob(jobId, { sku: 'A-100' }, { replay: 'off' });
    expect(run).toMatchObject({ status: 'succeeded', mode: 'agent' });
    // A run of the agent that succeeds records anew.
    expect((await recipeOf(jobId)).version).toBe(3);
  });

  it("records no version from an eval's run: an eval measures the job and leaves it as it was", async () => {
    h.model.script([
      toolUse('browser', { action: 'navigate', url: `${sites.url}/product/1` }),
      toolUse('browser', { action: 'read_text' }),
      toolUse('finish', { result: { name: 'Blue Mug', price: 12.5 }, confidence: 'high' }),
    ]);
    const created = await h.daemon.api('POST', `/v1/jobs/${jobId}/evals`, { replay: 'off', cases: [{ name: 'mug', inputs: { sku: 'A-100' }, expect: { members: { name: { equals: 'Blue Mug' } } } }] });
    expect(created.status).toBe(202);
    const evaluated = await evalEnded(h.daemon, created.body.id);
    expect(evaluated.cases[0]).toMatchObject({ status: 'passed', mode: 'agent', run_status: 'succeeded' });
    expect((await recipeOf(jobId)).version).toBe(3);
  });

  it('forgets the recipe when the job becomes another task', async () => {
    const other = await createJob({ name: 'other', prompt: 'Look at {{sku}}', replay: 'auto' });
    h.model.script([toolUse('browser', { action: 'navigate', url: `${sites.url}/product/1` }), toolUse('browser', { action: 'read_text' }), toolUse('finish', { result: { name: 'Blue Mug' }, confidence: 'high' })]);
    expect(await runJob(other, { sku: 'A-100' })).toMatchObject({ status: 'succeeded', mode: 'agent' });
    expect((await recipeOf(other)).version).toBe(1);
    expect((await h.daemon.api('PATCH', `/v1/jobs/${other}`, { name: 'renamed' })).status).toBe(200);
    expect((await recipeOf(other)).version).toBe(1);
    expect((await h.daemon.api('PATCH', `/v1/jobs/${other}`, { prompt: 'Add {{sku}} to the cart' })).status).toBe(200);
    expect((await h.daemon.api('GET', `/v1/jobs/${other}/recipe`)).status).toBe(404);
  });

  it('deletes every version, and answers 404 for the recipe after', async () => {
    const res = await h.daemon.api('DELETE', `/v1/jobs/${jobId}/recipe`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ job_id: jobId, object: 'recipe', livemode: true, deleted: true, versions: 3 });
    const gone = await h.daemon.api('GET', `/v1/jobs/${jobId}/recipe`);
    expect(gone.status).toBe(404);
    expect(gone.body.error.type).toBe('not_found_error');
  });
});

describe('a form job: fill in the contact form and submit it', () => {
  let jobId: string;

  beforeAll(async () => {
    jobId = await createJob({
      name: 'contact',
      prompt: `Send the contact form at ${sites.url}/contact for {{name}} <{{email}}> and give the confirmation number.`,
      input_schema: { type: 'object', required: ['name', 'email'], properties: { name: { type: 'string' }, email: { type: 'string' } } },
      output_schema: { type: 'object', required: ['confirmation'], properties: { confirmation: { type: 'string', pattern: '^C-\\d+$' } } },
      replay: 'auto',
    });
    h.model.script([
      toolUse('browser', { action: 'navigate', url: `${sites.url}/contact` }),
      toolUse('browser', { action: 'type', selector: '#name', text: 'Alice Example' }),
      toolUse('browser', { action: 'type', selector: '#email', text: 'alice@example.com' }),
      toolUse('browser', { action: 'snapshot' }),
      toolUse('browser', { action: 'click', text: 'Send' }),
      toolUse('browser', { action: 'read_text' }),
      toolUse('finish', { result: { confirmation: 'C-1001' }, confidence: 'high' }),
    ]);
    const run = await runJob(jobId, { name: 'Alice Example', email: 'alice@example.com' });
    expect(run).toMatchObject({ status: 'succeeded', mode: 'agent' });
  });

  it('keeps where each input went as a placeholder, the button by role and name first, and no input value', async () => {
    const recipe = await recipeOf(jobId);
    expect(recipe.steps.map((s: any) => [s.action, s.text ?? null])).toEqual([['navigate', null], ['type', '{{name}}'], ['type', '{{email}}'], ['click', null]]);
    expect(recipe.steps[1].locators).toEqual([{ kind: 'role', selector: 'role=textbox[name="Name"s]' }, { kind: 'css', selector: '#name' }]);
    expect(recipe.steps[2].locators).toEqual([{ kind: 'role', selector: 'role=textbox[name="Email"s]' }, { kind: 'css', selector: '#email' }]);
    expect(recipe.steps[3].locators).toEqual([{ kind: 'role', selector: 'role=button[name="Send"]' }, { kind: 'text', text: 'Send' }]);
    expect(recipe.steps[3].page.key_text).toEqual(['Send']);
    expect(recipe.extraction.confirmation).toMatchObject({ from: 'page_text', prefix: 'Confirmation: ' });
    const json = JSON.stringify(recipe);
    for (const value of ['Alice Example', 'alice@example.com', 'Alice']) expect(json).not.toContain(value);
  });

  it('submits the form once with the new inputs and no model call', async () => {
    const { run, modelCalls } = await replayJob(jobId, { name: 'Bob Stone', email: 'bob@example.com' });
    expect(modelCalls).toBe(0);
    expect(run).toMatchObject({ status: 'succeeded', mode: 'replay', result: { confirmation: 'C-1002' } });
    expect(sites.submissions).toEqual([{ name: 'Alice Example', email: 'alice@example.com' }, { name: 'Bob Stone', email: 'bob@example.com' }]);
  });

  it('hands over at the click when the button was renamed and moved, submits once, and records version 2', async () => {
    sites.formLayout = 'moved';
    const before = h.model.requests.length;
    h.model.script([
      toolUse('browser', { action: 'click', text: 'Submit request' }),
      toolUse('browser', { action: 'read_text' }),
      toolUse('finish', { result: { confirmation: 'C-1003' }, confidence: 'high' }),
    ]);
    const run = await runJob(jobId, { name: 'Carol Jones', email: 'carol@example.com' });
    expect(run).toMatchObject({ status: 'succeeded', mode: 'replay_then_agent', result: { confirmation: 'C-1003' } });
    const handover = firstMessageText(h.model.requests[before]!);
    expect(handover).toContain('step 4 of 4');
    expect(handover).toContain('no longer shows "Send"');
    expect(handover).toMatch(/2\. type \{\{name\}\} into role=textbox\[name="Name"s\]: done/);
    // The replay filled the fields; the agent only clicked: one submission, with Carol's values.
    expect(sites.submissions.slice(2)).toEqual([{ name: 'Carol Jones', email: 'carol@example.com' }]);
    const recipe = await recipeOf(jobId);
    expect(recipe.version).toBe(2);
    expect(recipe.steps[3].locators).toEqual([{ kind: 'text', text: 'Submit request' }]);
    expect(JSON.stringify(recipe)).not.toContain('Carol');

    const { run: next, modelCalls } = await replayJob(jobId, { name: 'Dave Smith', email: 'dave@example.com' });
    expect(modelCalls).toBe(0);
    expect(next).toMatchObject({ status: 'succeeded', mode: 'replay', result: { confirmation: 'C-1004' } });
    expect(sites.submissions.at(-1)).toEqual({ name: 'Dave Smith', email: 'dave@example.com' });
    expect(sites.submissions).toHaveLength(4);
  });

  it('hands over when the result read breaks the output_schema, without submitting again', async () => {
    sites.thanksLayout = 'pending';
    const before = h.model.requests.length;
    h.model.script([toolUse('browser', { action: 'read_text' }), toolUse('finish', { result: { confirmation: 'C-1005' }, confidence: 'high' })]);
    const run = await runJob(jobId, { name: 'Erin Moss', email: 'erin@example.com' });
    expect(run).toMatchObject({ status: 'succeeded', mode: 'replay_then_agent', result: { confirmation: 'C-1005' } });
    const handover = firstMessageText(h.model.requests[before]!);
    expect(handover).toContain('does not satisfy the output_schema');
    expect(handover).toContain('4. click "Submit request": done');
    expect(sites.submissions).toHaveLength(5);
    const recipe = await recipeOf(jobId);
    expect(recipe.version).toBe(3);
    expect(recipe.extraction.confirmation).toEqual({ from: 'page_text', type: 'string', prefix: 'Confirmation: pending, your number is ', suffix: ' (sent by email)', before: null });
  });

  it('answers 404 for a job without a recipe, and for another organisation', async () => {
    const bare = await createJob({ name: 'bare', prompt: 'nothing yet' });
    const none = await h.daemon.api('GET', `/v1/jobs/${bare}/recipe`);
    expect(none.status).toBe(404);
    expect(none.body.error).toMatchObject({ code: 'resource_missing', message: `Job '${bare}' has no recipe yet: a run of it that succeeds (a valid result, confidence not low) records one` });
    expect((await h.daemon.api('DELETE', `/v1/jobs/${bare}/recipe`)).status).toBe(404);
    expect((await h.daemon.api('GET', `/v1/jobs/${bare}`)).body.replay).toBe('off');
    const other = h.daemon.createOrgWithKey(`other-${Date.now()}`);
    for (const method of ['GET', 'DELETE']) {
      const foreign = await h.daemon.api(method, `/v1/jobs/${jobId}/recipe`, undefined, { key: other.key });
      expect(foreign.status).toBe(404);
      expect(foreign.body.error.code).toBe('resource_missing');
    }
    expect((await recipeOf(jobId)).version).toBe(3);
  });
});

describe('a claim job: upload the run\'s receipt on a form and send it', () => {
  let jobId: string;
  /** Uploads a file to the daemon; answers its id. */
  const fileOf = async (name: string, content: string | Buffer, contentType: string): Promise<string> => {
    const res = await fetch(`${h.daemon.url}/v1/files?name=${encodeURIComponent(name)}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.daemon.key}`, 'content-type': contentType },
      body: typeof content === 'string' ? content : new Uint8Array(content),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: string }).id;
  };
  const FIRST = 'receipt of the first run: 3 coffees, FIRST-CONTENT-7c1f';
  const SECOND = 'receipt of the second run, a longer one: 2 teas and a cake, SECOND-CONTENT-93ad';

  beforeAll(async () => {
    jobId = await createJob({
      name: 'claim',
      prompt: `Send the claim form at ${sites.url}/claim with the receipt you were given, and say how many bytes it received.`,
      output_schema: { type: 'object', required: ['bytes'], properties: { bytes: { type: 'integer', minimum: 1 } } },
      replay: 'auto',
    });
    h.model.script([
      toolUse('browser', { action: 'navigate', url: `${sites.url}/claim` }),
      toolUse('browser', { action: 'upload', selector: '#doc', files: ['receipt-2026-11-first.txt'] }),
      toolUse('browser', { action: 'click', selector: '#send' }),
      toolUse('browser', { action: 'read_text' }),
      toolUse('finish', { result: { bytes: Buffer.byteLength(FIRST) }, confidence: 'high' }),
    ]);
    const first = await runJob(jobId, {}, { files: [await fileOf('receipt-2026-11-first.txt', FIRST, 'text/plain')] });
    expect(first).toMatchObject({ status: 'succeeded', mode: 'agent', warnings: [] });
  });

  it("records the upload by the file's place among the run's files and its type, never its name or content", async () => {
    const recipe = await recipeOf(jobId);
    expect(recipe.steps[1]).toMatchObject({ tool: 'browser', action: 'upload', locators: [{ kind: 'css', selector: '#doc' }], files: [{ index: 0, content_type: 'text/plain' }] });
    const json = JSON.stringify(recipe);
    expect(json).not.toContain('FIRST-CONTENT');
    expect(json).not.toContain('receipt-2026-11-first');
  });

  it("replays it with the next run's own file, by its place, with no model call", async () => {
    const before = h.model.requests.length;
    const run = await runJob(jobId, {}, { files: [await fileOf('another-name.txt', SECOND, 'text/plain')] });
    expect(h.model.requests.length).toBe(before);
    expect(run).toMatchObject({ status: 'succeeded', mode: 'replay', result: { bytes: Buffer.byteLength(SECOND) } });
    expect(sites.uploads.at(-1)).toEqual({ name: 'another-name.txt', content: SECOND });
    expect(JSON.stringify(await recipeOf(jobId))).not.toContain('SECOND-CONTENT');
  });

  it('hands over to the agent, before sending anything, when the run has no such file or one of another type', async () => {
    const sent = sites.uploads.length;
    for (const [files, why] of [
      [[], "the recipe uploads the run's input file files[0] (text/plain), and this run has no input files"],
      [[await fileOf('scan.png', Buffer.from('89504e470d0a1a0a', 'hex'), 'image/png')], "the recipe uploads a text/plain file as the run's input file files[0], and this run's (scan.png) is image/png"],
    ] as const) {
      const before = h.model.requests.length;
      // The agent judges: nothing to send that fits.
      h.model.script([toolUse('finish', { result: { bytes: 1 }, confidence: 'low' })]);
      const run = await runJob(jobId, {}, { files });
      expect(run).toMatchObject({ status: 'succeeded', mode: 'replay_then_agent', confidence: 'low' });
      const handover = firstMessageText(h.model.requests[before]!);
      expect(handover).toContain(`It stopped at step 2 of 3 (upload files[0] into #doc): ${why}.`);
      expect(handover).toContain('1. navigate to');
    }
    expect(sites.uploads).toHaveLength(sent);
    expect((await recipeOf(jobId)).version).toBe(1);
  });
});

describe('a shop job given the site itself, as a root with a trailing slash', () => {
  let jobId: string;
  let other: TestSites;

  beforeAll(async () => {
    other = await startTestSites();
    sites.shopLayout = 'price';
    jobId = await createJob({
      name: 'price check on a site',
      prompt: 'Find the product {{sku}} in the shop at {{site}} and give its name and price.',
      input_schema: { type: 'object', required: ['site', 'sku'], properties: { site: { type: 'string' }, sku: { type: 'string' } } },
      output_schema: shopSchema,
      replay: 'auto',
    });
    h.model.script([
      toolUse('browser', { action: 'navigate', url: `${sites.url}/` }),
      toolUse('browser', { action: 'type', selector: '#q', text: 'A-100', submit: true }),
      toolUse('browser', { action: 'click', selector: 'a.result' }),
      toolUse('browser', { action: 'read_text' }),
      toolUse('finish', { result: { name: 'Blue Mug', price: 12.5 }, confidence: 'high', matched_text: 'Price: $12.50' }),
    ]);
    expect(await runJob(jobId, { site: `${sites.url}/`, sku: 'A-100' })).toMatchObject({ status: 'succeeded', mode: 'agent' });
  });
  afterAll(async () => {
    await other?.close();
  });

  it('records a recipe in which the site is its placeholder, in every URL the run visited', async () => {
    const recipe = await recipeOf(jobId);
    expect(recipe.version).toBe(1);
    expect(recipe.steps.map((s: any) => s.url ?? s.page?.url)).toEqual(['{{site}}', '{{site}}/', '{{site}}/search?q=*']);
    expect(JSON.stringify(recipe)).not.toContain(sites.url.replace('http://', ''));
  });

  it('replays it on another site, given with the trailing slash or without, with no model call', async () => {
    for (const [site, sku, result] of [[`${other.url}/`, 'B-200', { name: 'Red Kettle', price: 30 }], [other.url, 'C-300', { name: 'Green Teapot', price: 1249.99 }]] as const) {
      const { run, modelCalls } = await replayJob(jobId, { site, sku });
      expect(modelCalls).toBe(0);
      expect(run).toMatchObject({ status: 'succeeded', mode: 'replay', result });
      expect(run.evidence.matched_text).toContain(`Price: $${result.price.toFixed(2)}`);
    }
    expect((await recipeOf(jobId)).version).toBe(1);
  });
});

describe('a type step whose field got another id', () => {
  let jobId: string;

  beforeAll(async () => {
    Object.assign(sites, { formLayout: 'send', thanksLayout: 'plain', fieldIds: 'plain' });
    jobId = await createJob({
      name: 'contact by label',
      prompt: `Send the contact form at ${sites.url}/contact for {{name}} <{{email}}> and give the confirmation number.`,
      input_schema: { type: 'object', required: ['name', 'email'], properties: { name: { type: 'string' }, email: { type: 'string' } } },
      output_schema: { type: 'object', required: ['confirmation'], properties: { confirmation: { type: 'string', pattern: '^C-\\d+$' } } },
      replay: 'auto',
    });
    h.model.script([
      toolUse('browser', { action: 'navigate', url: `${sites.url}/contact` }),
      toolUse('browser', { action: 'type', selector: '#name', text: 'Fay Lane' }),
      toolUse('browser', { action: 'type', selector: '#email', text: 'fay@example.com' }),
      toolUse('browser', { action: 'click', selector: '#send' }),
      toolUse('browser', { action: 'read_text' }),
      toolUse('finish', { result: { confirmation: `C-${1001 + sites.submissions.length}` }, confidence: 'high' }),
    ]);
    expect(await runJob(jobId, { name: 'Fay Lane', email: 'fay@example.com' })).toMatchObject({ status: 'succeeded', mode: 'agent' });
  });
  afterAll(() => {
    sites.fieldIds = 'plain';
  });

  it('finds the fields by their labels and replays with no model call', async () => {
    sites.fieldIds = 'renamed';
    const { run, modelCalls } = await replayJob(jobId, { name: 'Gus Hale', email: 'gus@example.com' });
    expect(modelCalls).toBe(0);
    expect(run).toMatchObject({ status: 'succeeded', mode: 'replay', result: { confirmation: `C-${1000 + sites.submissions.length}` } });
    expect(sites.submissions.at(-1)).toEqual({ name: 'Gus Hale', email: 'gus@example.com' });
    const steps = await stepsOf(h.daemon, run.task_id);
    expect(steps.filter((s) => s.name === 'replay.browser.type').map((s) => [s.input.locator, s.is_error])).toEqual([
      ['role=textbox[name="Name"s]', false],
      ['role=textbox[name="Email"s]', false],
    ]);
  });
});
