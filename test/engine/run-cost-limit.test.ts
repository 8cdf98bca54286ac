import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reply, toolUse } from '../fixtures/scripted-anthropic.js';
import { createRun, startEngine, stepsOf, waitForRun, type EngineHarness } from './harness.js';

let h: EngineHarness;
let projectId: string;

beforeAll(async () => {
  h = await startEngine();
  projectId = (await h.daemon.api('POST', '/v1/projects', { name: 'cost limits' })).body.id;
});
afterAll(async () => {
  await h?.close();
});

const PROMPT = 'Find the price of the blue kettle on https://shop.example';

/** A model turn that runs code and goes on: the agent keeps calling tools (and spending) until something stops it. */
function busyTurn() {
  return reply(toolUse('run_code', { language: 'bash', code: 'echo still looking' }), { usage: { input_tokens: 10_000, output_tokens: 500 } });
}

const finishTurn = () => toolUse('finish', { result: { price: '12.00' }, confidence: 'high' });

describe('max_cost_usd: a hard cost limit per run', () => {
  it('stops the run before the model call that could pass the limit, never after, and records what was spent', async () => {
    const max = 0.2;
    const turns = 20;
    h.model.script(Array.from({ length: turns }, busyTurn));
    const before = h.model.requests.length;
    const runId = await createRun(h.daemon, { prompt: PROMPT, model: 'sonnet', max_cost_usd: max });
    const run = await waitForRun(h.daemon, runId);
    const calls = h.model.requests.length - before;
    const unused = h.model.discard();
    expect(run).toMatchObject({ status: 'failed', failure_reason: 'timeout', failure_code: 'budget_exceeded', max_cost_usd: max });
    expect(calls).toBeGreaterThan(0);
    expect(calls).toBeLessThan(turns); // stopped by the limit, not by the script running out
    expect(unused).toBe(turns - calls);

    // The spend recorded: every model call billed, and never above the limit, at any step or at the end.
    const steps = await stepsOf(h.daemon, runId);
    const modelSteps = steps.filter((s: any) => s.kind === 'model');
    expect(modelSteps).toHaveLength(calls);
    // Every call it made was answered with a tool call the agent carried out.
    expect(steps.filter((s: any) => s.kind === 'tool' && s.name === 'run_code.bash')).toHaveLength(calls);
    const billed = modelSteps.reduce((sum: number, s: any) => sum + s.usage.cost_usd, 0);
    expect(billed).toBeCloseTo(calls * (10_000 * 3 + 500 * 15) / 1e6, 6);
    expect(run.usage.cost_usd).toBeGreaterThanOrEqual(billed - 1e-9);
    expect(run.usage.cost_usd).toBeLessThanOrEqual(max);

    // The detail names the figures, and the call it refused would indeed have passed the limit.
    const m = /could cost up to ([\d.]+) USD .*has spent ([\d.]+) USD of its max_cost_usd of ([\d.]+) USD/.exec(run.failure_detail);
    expect(m, run.failure_detail).not.toBeNull();
    const [worst, spent, named] = [Number(m![1]), Number(m![2]), Number(m![3])];
    expect(named).toBe(max);
    expect(spent).toBeGreaterThanOrEqual(billed - 1e-9);
    expect(spent).toBeLessThanOrEqual(max);
    expect(spent + worst).toBeGreaterThan(max);
  });

  it('applies the API key\'s default (max_run_cost_usd) to a run that gives none, and the run\'s own over it', async () => {
    const org = h.daemon.createOrgWithKey(`key-default-${Date.now()}`, { maxRunCostUsd: 0.15 });
    h.model.script([busyTurn(), busyTurn(), busyTurn(), busyTurn(), busyTurn(), busyTurn()]);
    const before = h.model.requests.length;
    const limited = await waitForRun(h.daemon, await createRun(h.daemon, { prompt: PROMPT }, org.key), undefined, undefined, org.key);
    expect(limited).toMatchObject({ status: 'failed', failure_code: 'budget_exceeded', max_cost_usd: 0.15 });
    expect(limited.failure_detail).toContain('max_cost_usd of 0.15 USD');
    expect(limited.usage.cost_usd).toBeLessThanOrEqual(0.15);
    const used = h.model.requests.length - before;
    expect(h.model.discard()).toBe(6 - used);

    h.model.script([finishTurn()]);
    const own = await waitForRun(h.daemon, await createRun(h.daemon, { prompt: PROMPT, max_cost_usd: 2 }, org.key), undefined, undefined, org.key);
    expect(own).toMatchObject({ max_cost_usd: 2 });
    expect(used).toBeGreaterThan(0);
  });

  it('gives a job run its job\'s max_cost_usd over the key\'s default, and the run\'s own over its job\'s', async () => {
    const org = h.daemon.createOrgWithKey(`job-default-${Date.now()}`, { maxRunCostUsd: 0.5 });
    const project = (await h.daemon.api('POST', '/v1/projects', { name: 'p' }, { key: org.key })).body.id;
    const job = await h.daemon.api('POST', '/v1/jobs', { project_id: project, name: 'kettle', prompt: PROMPT, max_cost_usd: 1.25 }, { key: org.key });
    expect(job.status).toBe(201);
    expect(job.body.max_cost_usd).toBe(1.25);
    const fromJob = await h.daemon.api('POST', `/v1/jobs/${job.body.id}/runs/check`, {}, { key: org.key });
    expect(fromJob.status).toBe(200);

    h.model.script([finishTurn(), finishTurn()]);
    const jobRun = await waitForRun(h.daemon, (await h.daemon.api('POST', `/v1/jobs/${job.body.id}/runs`, {}, { key: org.key })).body.task_id, undefined, undefined, org.key);
    expect(jobRun.max_cost_usd).toBe(1.25);
    const ownRun = await waitForRun(h.daemon, (await h.daemon.api('POST', `/v1/jobs/${job.body.id}/runs`, { max_cost_usd: 0.3 }, { key: org.key })).body.task_id, undefined, undefined, org.key);
    expect(ownRun.max_cost_usd).toBe(0.3);

    const cleared = await h.daemon.api('PATCH', `/v1/jobs/${job.body.id}`, { max_cost_usd: null }, { key: org.key });
    expect(cleared.body.max_cost_usd).toBeNull();
    h.model.script([finishTurn()]);
    const keyRun = await waitForRun(h.daemon, (await h.daemon.api('POST', `/v1/jobs/${job.body.id}/runs`, {}, { key: org.key })).body.task_id, undefined, undefined, org.key);
    expect(keyRun.max_cost_usd).toBe(0.5);
  });

  it('leaves a run without a limit when neither it, its job nor its key gives one', async () => {
    h.model.script([finishTurn()]);
    const run = await waitForRun(h.daemon, await createRun(h.daemon, { prompt: PROMPT }));
    expect(run).toMatchObject({ status: 'succeeded', max_cost_usd: null, failure_code: null });
  });
});

describe('max_cost_usd: refused values', () => {
  it.each([
    ['zero', 0],
    ['a negative figure', -1],
    ['a string', '0.5'],
    ['more than 100000', 100_001],
  ])('answers 400 naming max_cost_usd for %s, on POST /v1/runs and POST /v1/jobs', async (_what, value) => {
    const run = await h.daemon.api('POST', '/v1/runs', { prompt: PROMPT, max_cost_usd: value });
    expect(run.status).toBe(400);
    expect(run.body.error.param).toBe('max_cost_usd');
    const job = await h.daemon.api('POST', '/v1/jobs', { project_id: projectId, name: 'j', prompt: PROMPT, max_cost_usd: value });
    expect(job.status).toBe(400);
    expect(job.body.error.param).toBe('max_cost_usd');
  });

  it('answers 400 max_cost_too_low for a limit below what the first model call may cost, naming that figure, and creates no run', async () => {
    const before = (await h.daemon.api('GET', '/v1/runs?limit=200')).body.data.length;
    const res = await h.daemon.api('POST', '/v1/runs', { prompt: PROMPT, model: 'sonnet', max_cost_usd: 0.001 });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'max_cost_too_low', param: 'max_cost_usd' });
    expect(res.body.error.message).toMatch(/max_cost_usd \(its own\) is 0\.001 USD, less than the [\d.]+ USD a run on sonnet needs before it can make its first model call/);
    const check = await h.daemon.api('POST', '/v1/runs/check', { prompt: PROMPT, model: 'sonnet', max_cost_usd: 0.001 });
    expect(check.status).toBe(400);
    expect(check.body.error.code).toBe('max_cost_too_low');
    expect((await h.daemon.api('GET', '/v1/runs?limit=200')).body.data.length).toBe(before);
  });

  it('answers 400 max_cost_too_low when the limit comes from the job or the key, saying whose it is', async () => {
    const org = h.daemon.createOrgWithKey(`low-key-${Date.now()}`, { maxRunCostUsd: 0.0001 });
    const fromKey = await h.daemon.api('POST', '/v1/runs', { prompt: PROMPT }, { key: org.key });
    expect(fromKey.status).toBe(400);
    expect(fromKey.body.error.message).toContain("max_cost_usd (its API key's default (max_run_cost_usd)) is 0.0001 USD");
    const job = await h.daemon.api('POST', '/v1/jobs', { project_id: projectId, name: 'cheap', prompt: PROMPT, max_cost_usd: 0.0001 });
    const fromJob = await h.daemon.api('POST', `/v1/jobs/${job.body.id}/runs`, {});
    expect(fromJob.status).toBe(400);
    expect(fromJob.body.error.message).toContain("max_cost_usd (its job's) is 0.0001 USD");
  });
});
