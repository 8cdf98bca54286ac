import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/store.js';
import { dataPaths } from '../../src/runtime/paths.js';
import { finish, hold, reply, text, toolResults, toolUse } from '../fixtures/scripted-anthropic.js';
import {
  closedPort,
  createRun,
  sandboxDirsOf,
  sandboxProcesses,
  servePages,
  startEngine,
  stepsOf,
  until,
  waitForRun,
  type EngineHarness,
} from './harness.js';

let h: EngineHarness;
let pages: Awaited<ReturnType<typeof servePages>>;

const MAX_TOKENS = 256;
const SONNET_IN = 3 / 1e6;
const SONNET_OUT = 15 / 1e6;

beforeAll(async () => {
  pages = await servePages((req, res) => {
    if (req.url === '/captcha') {
      res.writeHead(200, { 'content-type': 'text/html' }).end(
        '<!doctype html><title>Just a moment</title><div class="g-recaptcha" data-sitekey="x"></div><p>Please verify you are human to continue.</p>',
      );
    } else if (req.url === '/broken') {
      res.writeHead(503, { 'content-type': 'text/html' }).end('<title>Service Unavailable</title><h1>503</h1>');
    } else {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Fine</title><p>All good</p>');
    }
  });
  h = await startEngine({
    env: { ERRAND_LIMITS_MAX_STEPS: '4', ERRAND_MODELS_MAX_TOKENS: String(MAX_TOKENS), ERRAND_BILLING_SANDBOX_USD_PER_S: '0' },
  });
});

afterAll(async () => {
  await h?.close();
  await pages?.close();
});

function spendOf(where: { orgId?: string; runId?: string }): { total: number; entries: number } {
  const store = openStore(dataPaths(h.daemon.home).database);
  try {
    const rows = store.db
      .prepare(where.runId ? 'SELECT usd FROM spend_entries WHERE run_id = ?' : 'SELECT usd FROM spend_entries WHERE org_id = ?')
      .all(where.runId ?? where.orgId) as { usd: number }[];
    return { total: rows.reduce((n, r) => n + r.usd, 0), entries: rows.length };
  } finally {
    store.close();
  }
}

describe('limits', () => {
  it('ends a run that outlives its timeout_s as timeout, aborting the model call', async () => {
    const held = hold(toolUse('finish', { result: { late: true } }));
    h.model.script([held]);
    const runId = await createRun(h.daemon, { prompt: 'Take your time', timeout_s: 2 });
    await held.arrived;
    const run = await waitForRun(h.daemon, runId);
    expect(run).toMatchObject({ status: 'failed', failure_reason: 'timeout', result: null });
    expect(run.failure_detail).toContain('time limit');
    expect(run.failure_detail).toContain('timeout_s of 2 s');
    await held.disconnected;
    // Removed with the attempt's end, which the run's end does not wait for (issue 24).
    await until('the sandbox to be removed', () => sandboxDirsOf(h.daemon.home, runId).length === 0);
  });

  it('ends a run at limits.max_steps as timeout with "step limit"', async () => {
    const start = h.model.requests.length;
    h.model.script([1, 2, 3, 4].map((i) => toolUse('run_code', { language: 'bash', code: `echo ${i}` })));
    const runId = await createRun(h.daemon, { prompt: 'Loop forever' });
    const run = await waitForRun(h.daemon, runId);
    expect(run).toMatchObject({ status: 'failed', failure_reason: 'timeout' });
    expect(run.failure_detail).toContain('step limit');
    expect(run.failure_detail).toContain('limits.max_steps is 4');
    expect(h.model.requests.length - start).toBe(4);
  });
});

describe('site problems', () => {
  it('ends as site_down when the model gives up after a refused connection', async () => {
    const port = await closedPort();
    const start = h.model.requests.length;
    h.model.script([toolUse('browser', { action: 'navigate', url: `http://127.0.0.1:${port}/` }), finish('The site is not answering.'), reply(text('I cannot continue.'))]);
    const runId = await createRun(h.daemon, { prompt: 'Check the status page' });
    const run = await waitForRun(h.daemon, runId);
    expect(run).toMatchObject({ status: 'failed', failure_reason: 'site_down' });
    expect(run.failure_detail).toContain('connection_refused');
    expect(run.failure_detail).toContain(`127.0.0.1:${port}`);
    const [navigated] = toolResults(h.model.requests[start + 1]!);
    expect(navigated!.isError).toBe(true);
    expect(navigated!.text).toContain('PROBLEM: connection_refused');
    expect(navigated!.text).toContain('site_down');
  });

  it('ends as site_down when the model finishes without a result after a 5xx page', async () => {
    h.model.script([toolUse('browser', { action: 'navigate', url: `${pages.url}/broken` }), toolUse('finish', { result: null })]);
    const runId = await createRun(h.daemon, { prompt: 'Read the broken page' });
    const run = await waitForRun(h.daemon, runId);
    expect(run).toMatchObject({ status: 'failed', failure_reason: 'site_down' });
    expect(run.failure_detail).toContain('http_error 503');
  });

  it('ends as captcha on a captcha page, with a screenshot of it as evidence', async () => {
    const start = h.model.requests.length;
    h.model.script([toolUse('browser', { action: 'navigate', url: `${pages.url}/captcha` }), toolUse('finish', { result: null, confidence: 'low' })]);
    const runId = await createRun(h.daemon, { prompt: 'Read the protected page' });
    const run = await waitForRun(h.daemon, runId);
    expect(run).toMatchObject({ status: 'failed', failure_reason: 'captcha' });
    expect(run.failure_detail).toContain('captcha');
    expect(toolResults(h.model.requests[start + 1]!)[0]!.text).toContain('PROBLEM: captcha');
    const shot = await fetch(run.evidence.screenshot_url);
    expect(shot.status).toBe(200);
    const steps = await stepsOf(h.daemon, runId);
    expect(steps.find((s) => s.name === 'browser.screenshot')?.input).toMatchObject({ taken_by: 'engine' });
  });

  it("keeps the model's own failure_reason and failure_detail", async () => {
    h.model.script([toolUse('finish', { result: null, failure_reason: 'auth_required', failure_detail: 'the page asks for a login' })]);
    const runId = await createRun(h.daemon, { prompt: 'Read my inbox' });
    expect(await waitForRun(h.daemon, runId)).toMatchObject({ status: 'failed', failure_reason: 'auth_required', failure_detail: 'the page asks for a login' });
  });
});

describe('connections', () => {
  it('fails a run naming a connection at once with auth_required, without a model call or a sandbox', async () => {
    const before = h.model.requests.length;
    const runId = await createRun(h.daemon, { prompt: 'Summarise my mail', connections: ['gmail'] });
    const run = await waitForRun(h.daemon, runId);
    expect(run).toMatchObject({ status: 'failed', failure_reason: 'auth_required', usage: { input_tokens: 0, output_tokens: 0, cost_usd: 0 } });
    expect(run.failure_detail).toContain("'gmail'");
    expect(h.model.requests.length).toBe(before);
    expect(await stepsOf(h.daemon, runId)).toEqual([]);
    expect(spendOf({ runId }).entries).toBe(0);
    expect(existsSync(join(h.daemon.home, 'sandboxes'))).toBe(true);
    // Removed with the attempt's end, which the run's end does not wait for (issue 24).
    await until('the sandbox to be removed', () => sandboxDirsOf(h.daemon.home, runId).length === 0);
  });
});

describe('output_schema', () => {
  const outputSchema = { type: 'object', required: ['price'], properties: { price: { type: 'number' } }, additionalProperties: false };

  it('asks the model to repair an invalid result once and takes the repaired one', async () => {
    const start = h.model.requests.length;
    h.model.script([
      toolUse('finish', { result: { price: '12 EUR' }, confidence: 'high' }),
      toolUse('finish', { result: { price: 12 }, confidence: 'high' }),
    ]);
    const runId = await createRun(h.daemon, { prompt: 'Price?', output_schema: outputSchema });
    const run = await waitForRun(h.daemon, runId);
    expect(run).toMatchObject({ status: 'succeeded', result: { price: 12 }, confidence: 'high', warnings: [] });
    const [repair] = toolResults(h.model.requests[start + 1]!);
    expect(repair!.isError).toBe(true);
    expect(repair!.text).toContain('does not satisfy the output schema');
    expect(repair!.text).toContain('result.price must be number');
  });

  it('delivers a still-invalid result with low confidence and the errors in warnings', async () => {
    h.model.script([
      toolUse('finish', { result: { price: '12 EUR' }, confidence: 'high' }),
      toolUse('finish', { result: { price: 'twelve', note: 'x' }, confidence: 'high' }),
    ]);
    const runId = await createRun(h.daemon, { prompt: 'Price?', output_schema: outputSchema });
    const run = await waitForRun(h.daemon, runId);
    expect(run).toMatchObject({ status: 'succeeded', result: { price: 'twelve', note: 'x' }, confidence: 'low' });
    expect(run.warnings).toEqual(expect.arrayContaining(['output_schema: result.price must be number', 'output_schema: result.note must NOT have additional properties']));
  });
});

describe('cancellation', () => {
  it('stops a running run and removes its sandbox within 5 s', async () => {
    const held = hold(toolUse('finish', { result: { never: true } }));
    h.model.script([toolUse('run_code', { language: 'bash', code: 'sleep 600 &' }), held]);
    const runId = await createRun(h.daemon, { prompt: 'Wait for me' });
    await held.arrived;
    const [dir] = sandboxDirsOf(h.daemon.home, runId);
    expect(dir).toBeDefined();
    expect(sandboxProcesses(dir!).length).toBeGreaterThan(0);
    expect((await h.daemon.api('GET', `/v1/runs/${runId}`)).body).toMatchObject({
      status: 'running',
      progress: { steps: 2, last_action: 'waiting for the model (sonnet)' },
    });

    const cancelled = await h.daemon.api('POST', `/v1/runs/${runId}/cancel`);
    const at = Date.now();
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled' });
    await until('the sandbox to be removed', () => sandboxDirsOf(h.daemon.home, runId).length === 0 && sandboxProcesses(dir!).length === 0, 5_000);
    expect(Date.now() - at).toBeLessThanOrEqual(5_000);
    await held.disconnected;
    const run = (await h.daemon.api('GET', `/v1/runs/${runId}`)).body;
    expect(run).toMatchObject({ status: 'cancelled', result: null });
    expect(run.finished_at).not.toBeNull();
  });
});

describe('spend caps mid-run', () => {
  // Each scripted call reports 8 000 input and 100 output tokens at sonnet prices: 0.0255 USD. Before a call the
  // engine needs the worst case of that call (input bound + max_tokens of output) to fit in what is left.
  const perCall = 8_000 * SONNET_IN + 100 * SONNET_OUT;

  it('stops the run as timeout before the call that could cross the daily cap; spend stays within the cap', async () => {
    const cap = 0.09;
    const org = h.daemon.createOrgWithKey(`capped-${Date.now()}`, { dailyCapUsd: cap });
    const start = h.model.requests.length;
    const turn = () => reply(toolUse('run_code', { language: 'bash', code: 'true' }), { usage: { input_tokens: 8_000, output_tokens: 100 } });
    // A fourth call would find the script used up and fail the run as site_down instead.
    h.model.script([turn(), turn(), turn()]);
    const runId = await createRun(h.daemon, { prompt: 'Spend' }, org.key);
    const run = await waitForRun(h.daemon, runId, undefined, undefined, org.key);
    expect(run).toMatchObject({ status: 'failed', failure_reason: 'timeout' });
    expect(run.failure_detail).toContain("organisation's daily spend cap");
    // Calls 1-3 fit (worst case about 0.029 USD each); after them 0.0135 USD is left, less than a worst case.
    expect(h.model.requests.length - start).toBe(3);
    const spend = spendOf({ orgId: org.orgId });
    expect(spend.entries).toBe(3);
    expect(spend.total).toBeCloseTo(3 * perCall, 9);
    expect(spend.total).toBeLessThanOrEqual(cap);
    expect(run.usage.cost_usd).toBeCloseTo(3 * perCall, 6);
  });

  it('bounds an overshoot by a provider that bills more than the bound to that one call', async () => {
    const cap = 0.05;
    const org = h.daemon.createOrgWithKey(`overbilled-${Date.now()}`, { dailyCapUsd: cap });
    const start = h.model.requests.length;
    // The first call reports 20 000 input tokens (0.06 USD), far past what the request could hold.
    h.model.script([reply(toolUse('run_code', { language: 'bash', code: 'true' }), { usage: { input_tokens: 20_000, output_tokens: 10 } })]);
    const runId = await createRun(h.daemon, { prompt: 'Spend' }, org.key);
    const run = await waitForRun(h.daemon, runId, undefined, undefined, org.key);
    expect(run).toMatchObject({ status: 'failed', failure_reason: 'timeout' });
    expect(h.model.requests.length - start).toBe(1);
    const spend = spendOf({ orgId: org.orgId });
    const lastCall = 20_000 * SONNET_IN + 10 * SONNET_OUT;
    expect(spend.total).toBeGreaterThan(cap);
    expect(spend.total).toBeLessThanOrEqual(cap + lastCall);
  });
});
