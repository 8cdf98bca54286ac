/**
 * Evaluations of a job through the compiled daemon (issue 35, item 1): ten cases against a scripted model that gets
 * some right and some wrong, their pass rate, differences and costs exactly; a baseline comparison; the bound on an
 * eval's runs in flight; caps; test mode; kept cases; cancellation; and every refusal of a bad request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roundUsd } from '../../src/billing/prices.js';
import { expectError, expectInvalid, idPattern, withStore } from '../api/harness.js';
import { hold, startScriptedAnthropic, type ScriptedAnthropic } from '../fixtures/scripted-anthropic.js';
import { startDaemon, type TestDaemon } from '../fixtures/test-daemon.js';
import { addingJob, answer, costOf, evalEnded, labelOf, SUM_SCHEMA, TEN_CASES, usageOf } from './harness.js';

const MODEL_KEY = 'test-model-key';
let model: ScriptedAnthropic;
let d: TestDaemon;

beforeAll(async () => {
  model = await startScriptedAnthropic({ apiKey: MODEL_KEY });
  d = await startDaemon({
    env: {
      ANTHROPIC_BASE_URL: model.baseUrl,
      ANTHROPIC_API_KEY: MODEL_KEY,
      ERRAND_SANDBOX_DRIVER: 'local',
      ERRAND_SANDBOX_WARM_POOL_SIZE: '0',
      // Costs are the model's tokens alone, so that they are exact.
      ERRAND_BILLING_SANDBOX_USD_PER_S: '0',
    },
  });
}, 60_000);

afterAll(async () => {
  await d?.cleanup();
  await model?.close();
});

function script(n: number): void {
  model.script(Array.from({ length: n }, () => answer));
}

describe('POST /v1/jobs/{id}/evals', () => {
  let job: string;
  let first: any;

  it('runs each case as a run of the job and grades it: the pass rate, differences and costs exactly', async () => {
    job = await addingJob(d);
    script(10);
    const res = await d.api('POST', `/v1/jobs/${job}/evals`, { cases: TEN_CASES });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body).toMatchObject({ object: 'eval', job_id: job, status: 'queued', model: 'sonnet', replay: 'off', prompt: null, baseline_id: null, max_parallel: 2, comparison: null });
    expect(res.body.id).toMatch(idPattern('eval'));
    expect(res.headers.get('location')).toBe(`${d.url}/v1/evals/${res.body.id}`);
    expect(res.body.report_url).toMatch(new RegExp(`^${d.url}/v1/evals/${res.body.id}/report\\?expires=\\d+&sig=`));
    expect(res.body.cases).toHaveLength(10);

    first = await evalEnded(d, res.body.id);
    expect(first.status).toBe('completed');
    const byLabel = new Map<string, any>(first.cases.map((c: any) => [c.label, c]));
    const passed = first.cases.filter((c: any) => c.status === 'passed').map((c: any) => c.label);
    expect(passed).toEqual(['two and two', 'whole result', 'contains', 'pattern', 'schema', 'not found', '{"a":4,"b":0}']);
    expect(byLabel.get('three and four').differences).toEqual([{ path: 'result.sum', expected: '7', got: '8' }]);
    expect(byLabel.get('range').differences).toEqual([{ path: 'result.sum', expected: 'a number from 8 to 9.5', got: '10' }]);
    expect(byLabel.get('expects a failure').differences).toEqual([
      { path: 'run', expected: 'failed with not_found', got: 'succeeded with {"sum":9,"note":"the sum of 9 and 0 is 9"}' },
    ]);
    expect(byLabel.get('not found')).toMatchObject({ status: 'passed', run_status: 'failed', failure_reason: 'not_found', failure_detail: 'There is no -1 here.', result: null, differences: [] });

    // Each case is a normal run of the job, with the cost its tokens came to.
    for (const [i, c] of TEN_CASES.entries()) {
      const got = byLabel.get(labelOf(c));
      const { a, b } = c.inputs;
      expect(got.position).toBe(i);
      expect(got.mode).toBe('agent');
      expect(got.usage).toMatchObject({ ...usageOf(a, b), cost_usd: costOf('sonnet', a, b) });
      expect(got.usage.duration_ms).toBeGreaterThanOrEqual(0);
      const run = (await d.api('GET', `/v1/runs/${got.run_id}`)).body;
      expect(run).toMatchObject({ job_id: job, model: 'sonnet', status: got.run_status, usage: { cost_usd: got.usage.cost_usd } });
    }
    expect(first.totals).toEqual({
      cases: 10,
      passed: 7,
      failed: 3,
      errors: 0,
      skipped: 0,
      pending: 0,
      running: 0,
      pass_rate: 0.7,
      duration_ms: first.cases.reduce((sum: number, c: any) => sum + c.usage.duration_ms, 0),
      input_tokens: TEN_CASES.reduce((sum, c) => sum + usageOf(c.inputs.a, c.inputs.b).input_tokens, 0),
      output_tokens: TEN_CASES.reduce((sum, c) => sum + usageOf(c.inputs.a, c.inputs.b).output_tokens, 0),
      cost_usd: roundUsd(TEN_CASES.reduce((sum, c) => sum + costOf('sonnet', c.inputs.a, c.inputs.b), 0)),
    });
    // Listed with its totals, and announced once it completed.
    const listed = (await d.api('GET', `/v1/jobs/${job}/evals`)).body;
    expect(listed.data).toEqual([expect.objectContaining({ id: first.id, status: 'completed', totals: first.totals })]);
    expect(listed.data[0].cases).toBeUndefined();
    const events = withStore(d, (store) => store.events.orgAfter(d.orgId, 0, 10_000).filter((e) => e.type.startsWith('eval.')));
    expect(events.map((e) => [e.type, JSON.parse(e.data).id, JSON.parse(e.data).totals.pass_rate])).toEqual([['eval.completed', first.id, 0.7]]);
  }, 120_000);

  it('names, beside a baseline, the cases that changed and what cost and time changed', async () => {
    script(10);
    const res = await d.api('POST', `/v1/jobs/${job}/evals`, { cases: TEN_CASES, model: 'opus', baseline_id: first.id });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const second = await evalEnded(d, res.body.id);
    expect(second.model).toBe('opus');
    expect(second.totals.pass_rate).toBe(0.8);
    expect(second.comparison).toMatchObject({
      baseline_id: first.id,
      pass_rate_change: 0.1,
      newly_passing: ['three and four', 'range'],
      newly_failing: ['two and two'],
      unchanged: 7,
      removed: [],
      cost_usd_change: roundUsd(second.totals.cost_usd - first.totals.cost_usd),
      duration_ms_change: second.totals.duration_ms - first.totals.duration_ms,
    });
    expect(second.comparison.cost_usd_change).toBeGreaterThan(0);
    const change = second.comparison.cases.find((c: any) => c.label === 'two and two');
    expect(change).toEqual({
      label: 'two and two',
      baseline_status: 'passed',
      status: 'failed',
      change: 'newly_failing',
      cost_usd_change: roundUsd(costOf('opus', 2, 2) - costOf('sonnet', 2, 2)),
      duration_ms_change: expect.any(Number),
    });
    for (const c of second.cases) expect((await d.api('GET', `/v1/runs/${c.run_id}`)).body.model).toBe('opus');
  }, 120_000);

  it("keeps at most max_parallel of its runs queued or running, and leaves the organisation's other runs their slots", async () => {
    const held = [hold(answer), hold(answer)];
    model.script(held);
    const res = await d.api('POST', `/v1/jobs/${job}/evals`, { cases: TEN_CASES.slice(0, 4) });
    await Promise.all(held.map((h) => h.arrived));
    const running = (await d.api('GET', `/v1/evals/${res.body.id}`)).body;
    expect(running.status).toBe('running');
    expect(running.cases.map((c: any) => c.status)).toEqual(['running', 'running', 'pending', 'pending']);
    const active = (await d.api('GET', `/v1/runs?job_id=${job}&limit=200`)).body.data.filter((r: any) => ['queued', 'running'].includes(r.status));
    expect(active).toHaveLength(2);
    // limits.max_concurrent_runs is 4: a run of the organisation's own starts beside the eval's two.
    const other = hold(answer);
    model.script([other]);
    const live = await d.api('POST', '/v1/runs', { prompt: 'Add 1 and 1.' });
    expect(live.status).toBe(202);
    await other.arrived;
    script(2);
    for (const h of [...held, other]) h.release();
    const done = await evalEnded(d, res.body.id);
    expect(done.totals).toMatchObject({ cases: 4, passed: 3, failed: 1 });
  }, 120_000);

  it("runs the cases with another prompt, the agent's (replay off), when it is given one", async () => {
    script(2);
    const before = model.requests.length;
    const res = await d.api('POST', `/v1/jobs/${job}/evals`, { cases: TEN_CASES.slice(0, 2), prompt: 'Carefully: Add {{a}} and {{b}}. Show your work.' });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ prompt: 'Carefully: Add {{a}} and {{b}}. Show your work.', replay: 'off' });
    const done = await evalEnded(d, res.body.id);
    expect(done.totals).toMatchObject({ passed: 1, failed: 1 });
    const asked = model.requests.slice(before).map((r) => JSON.stringify(r.body.messages));
    expect(asked.filter((m) => m.includes('Carefully: Add 2 and 2. Show your work.'))).toHaveLength(1);
    expect(asked.filter((m) => m.includes('Carefully: Add 3 and 4. Show your work.'))).toHaveLength(1);
  }, 60_000);

  it("runs the cases with the settings given, over the job's, and keeps them with the eval", async () => {
    script(2);
    const before = model.requests.length;
    const settings = { name: 'tighter schema', output_schema: { ...SUM_SCHEMA, title: 'settings-under-eval', properties: { ...SUM_SCHEMA.properties, sum: { type: 'integer' } } } };
    const res = await d.api('POST', `/v1/jobs/${job}/evals`, { cases: TEN_CASES.slice(0, 2), settings });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.settings).toEqual(settings);
    const done = await evalEnded(d, res.body.id);
    expect(done.totals).toMatchObject({ cases: 2, passed: 1, failed: 1, errors: 0 });
    for (const c of done.cases) expect((await d.api('GET', `/v1/runs/${c.run_id}`)).body).toMatchObject({ job_id: job, name: 'tighter schema' });
    // The agent was asked for a result against the eval's schema, not the job's.
    const systems = model.requests.slice(before).map((r) => JSON.stringify(r.body.system));
    expect(systems).toHaveLength(2);
    for (const s of systems) expect(s).toContain('settings-under-eval');
  }, 60_000);

  it("runs the job's kept cases when it is given none", async () => {
    const kept = await addingJob(d, { name: 'kept' });
    const noCases = await d.api('POST', `/v1/jobs/${kept}/evals`, {});
    expectInvalid(noCases, 'cases', 'no_eval_cases');
    const created = [];
    for (const c of TEN_CASES.slice(0, 2)) {
      const res = await d.api('POST', `/v1/jobs/${kept}/eval_cases`, c);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body).toMatchObject({ object: 'eval_case', job_id: kept, name: c.name, inputs: c.inputs, expect: c.expect });
      created.push(res.body);
    }
    expectError(await d.api('POST', `/v1/jobs/${kept}/eval_cases`, TEN_CASES[0]), 409, { type: 'conflict_error', code: 'eval_case_exists', param: 'name' });
    expect((await d.api('GET', `/v1/jobs/${kept}/eval_cases`)).body.data.map((c: any) => c.id)).toEqual([created[1].id, created[0].id]);
    expect((await d.api('GET', `/v1/eval_cases/${created[0].id}`)).body).toEqual(created[0]);
    script(2);
    const res = await d.api('POST', `/v1/jobs/${kept}/evals`, {});
    expect(res.status).toBe(202);
    const done = await evalEnded(d, res.body.id);
    expect(done.cases.map((c: any) => [c.case_id, c.status])).toEqual([
      [created[0].id, 'passed'],
      [created[1].id, 'failed'],
    ]);
    expect((await d.api('DELETE', `/v1/eval_cases/${created[0].id}`)).body).toMatchObject({ id: created[0].id, object: 'eval_case', deleted: true });
    expectError(await d.api('GET', `/v1/eval_cases/${created[0].id}`), 404, { type: 'not_found_error' });
    // An eval keeps its copy of a case deleted since.
    expect((await d.api('GET', `/v1/evals/${res.body.id}`)).body.cases[0].expect).toEqual(TEN_CASES[0]!.expect);
  }, 120_000);

  it('makes no run past a cap: each case ends in error with the refusal, and the eval completes', async () => {
    const broke = d.createOrgWithKey('broke', { dailyCapUsd: 0 });
    const brokeJob = await addingJob(d, { key: broke.key });
    const requests = model.requests.length;
    const res = await d.api('POST', `/v1/jobs/${brokeJob}/evals`, { cases: TEN_CASES.slice(0, 3) }, { key: broke.key });
    expect(res.status).toBe(202);
    const done = await evalEnded(d, res.body.id, broke.key);
    expect(done.status).toBe('completed');
    expect(done.started_at).toBeNull();
    expect(done.totals).toMatchObject({ cases: 3, passed: 0, errors: 3, pass_rate: 0, cost_usd: 0 });
    for (const c of done.cases) {
      expect(c.run_id).toBeNull();
      expect(c.error).toMatch(/^daily_cap_reached: /);
    }
    expect(model.requests.length).toBe(requests);
    expect((await d.api('GET', `/v1/runs?job_id=${brokeJob}`, undefined, { key: broke.key })).body.data).toEqual([]);
  }, 60_000);

  it('runs the same cases in test mode for free, with no model call', async () => {
    const test = d.createTestKey();
    const testJob = await addingJob(d, { key: test.key });
    const requests = model.requests.length;
    const res = await d.api('POST', `/v1/jobs/${testJob}/evals`, { cases: TEN_CASES }, { key: test.key });
    expect(res.status).toBe(202);
    expect(res.body.livemode).toBe(false);
    const done = await evalEnded(d, res.body.id, test.key);
    expect(done.status).toBe('completed');
    expect(done.totals).toMatchObject({ cases: 10, errors: 0, cost_usd: 0, input_tokens: 0, output_tokens: 0 });
    expect(model.requests.length).toBe(requests);
    // Its runs are the test-mode organisation's, invisible to a live key.
    expectError(await d.api('GET', `/v1/evals/${res.body.id}`), 404, { type: 'not_found_error' });
  }, 120_000);

  it('answers the first eval again for a repeated idempotency_key, and 409 for the key with another body', async () => {
    script(1);
    const body = { cases: TEN_CASES.slice(0, 1), idempotency_key: 'ci-run-17' };
    const a = await d.api('POST', `/v1/jobs/${job}/evals`, body);
    const b = await d.api('POST', `/v1/jobs/${job}/evals`, body);
    expect(b.status).toBe(202);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    expect(b.body.id).toBe(a.body.id);
    expectError(await d.api('POST', `/v1/jobs/${job}/evals`, { ...body, model: 'opus' }), 409, { type: 'conflict_error', code: 'idempotency_key_reused', param: 'idempotency_key' });
    await evalEnded(d, a.body.id);
  }, 60_000);

  it.each([
    ['an expectation with two matchers', { cases: [{ inputs: {}, expect: { equals: 1, contains: 'x' } }] }, 'cases.0.expect', 'invalid_body'],
    ['an unknown matcher', { cases: [{ inputs: {}, expect: { equal: 1 } }] }, 'cases.0.expect.equal', 'unknown_parameter'],
    ['no expectation', { cases: [{ inputs: {} }] }, 'cases.0.expect', 'missing_parameter'],
    ['a member matcher that is not a value matcher', { cases: [{ expect: { members: { sum: { failure_reason: 'not_found' } } } }] }, 'cases.0.expect.members.sum.failure_reason', 'unknown_parameter'],
    ['a pattern the linear engine cannot run', { cases: [{ expect: { members: { note: { pattern: '(a)\\1' } } } }] }, 'cases.0.expect.members.note.pattern', 'invalid_expectation'],
    ['a schema that does not compile', { cases: [{ expect: { schema: { type: 'nonsense' } } }] }, 'cases.0.expect.schema', 'invalid_expectation'],
    ['a schema beyond the bounds', { cases: [{ expect: { schema: { enum: Array.from({ length: 1001 }, (_, i) => i) } } }] }, 'cases.0.expect.schema.enum', 'schema_too_complex'],
    ['a range no number passes', { cases: [{ expect: { range: { min: 2, max: 1 } } }] }, 'cases.0.expect.range', 'invalid_expectation'],
    ['an empty member path', { cases: [{ expect: { members: { 'a..b': { equals: 1 } } } }] }, 'cases.0.expect.members.a..b', 'invalid_expectation'],
    ['two cases of one name', { cases: [{ name: 'x', expect: { equals: 1 } }, { name: 'x', inputs: { a: 1 }, expect: { equals: 1 } }] }, 'cases.1.name', 'duplicate_eval_case'],
    ['two nameless cases of the same inputs', { cases: [{ inputs: { a: 1, b: 2 }, expect: { equals: 1 } }, { inputs: { b: 2, a: 1 }, expect: { equals: 2 } }] }, 'cases.1.inputs', 'duplicate_eval_case'],
    ['another prompt with replay auto', { cases: TEN_CASES.slice(0, 1), prompt: 'Add {{a}} to {{b}}.', replay: 'auto' }, 'replay', 'replay_needs_job_prompt'],
    ['max_parallel above evals.max_parallel', { cases: TEN_CASES.slice(0, 1), max_parallel: 3 }, 'max_parallel', 'max_parallel_too_high'],
    ['an output_schema setting that does not compile', { cases: TEN_CASES.slice(0, 1), settings: { output_schema: { type: 'nonsense' } } }, 'settings.output_schema', 'invalid_output_schema'],
    ['a setting that is not a run option', { cases: TEN_CASES.slice(0, 1), settings: { inputs: {} } }, 'settings.inputs', 'unknown_parameter'],
  ])('answers 400 for %s', async (_what, body, param, code) => {
    expectInvalid(await d.api('POST', `/v1/jobs/${job}/evals`, body), param, code);
  });

  it("answers 404 for another organisation's job and baseline, and 400 for a baseline of another job", async () => {
    const other = d.createOrgWithKey('other');
    expectError(await d.api('POST', `/v1/jobs/${job}/evals`, { cases: TEN_CASES.slice(0, 1) }, { key: other.key }), 404, { type: 'not_found_error' });
    expectError(await d.api('GET', `/v1/evals/${first.id}`, undefined, { key: other.key }), 404, { type: 'not_found_error' });
    const otherJob = await addingJob(d, { name: 'another' });
    expectInvalid(await d.api('POST', `/v1/jobs/${otherJob}/evals`, { cases: TEN_CASES.slice(0, 1), baseline_id: first.id }), 'baseline_id', 'baseline_of_another_job');
    expectError(await d.api('POST', `/v1/jobs/${otherJob}/evals`, { cases: TEN_CASES.slice(0, 1), baseline_id: 'eval_00000000000000000000000000' }), 404, {
      type: 'not_found_error',
      param: 'baseline_id',
    });
  });
});

describe('DELETE /v1/jobs/{id}', () => {
  it('takes the job\'s evals and kept cases with it; its runs stay, as history', async () => {
    const job = await addingJob(d, { name: 'deleted' });
    const kept = (await d.api('POST', `/v1/jobs/${job}/eval_cases`, TEN_CASES[0])).body;
    script(1);
    const e = await evalEnded(d, (await d.api('POST', `/v1/jobs/${job}/evals`, {})).body.id);
    expect((await d.api('DELETE', `/v1/jobs/${job}`)).status).toBe(200);
    expectError(await d.api('GET', `/v1/evals/${e.id}`), 404, { type: 'not_found_error' });
    expectError(await d.api('GET', `/v1/eval_cases/${kept.id}`), 404, { type: 'not_found_error' });
    expect((await d.api('GET', `/v1/runs/${e.cases[0].run_id}`)).status).toBe(200);
  }, 60_000);
});

describe('POST /v1/evals/{id}/cancel', () => {
  it('skips the cases without a run, cancels the runs under way (graded as they end), and announces eval.cancelled', async () => {
    const job = await addingJob(d, { name: 'cancelled' });
    const held = [hold(answer), hold(answer)];
    model.script(held);
    const res = await d.api('POST', `/v1/jobs/${job}/evals`, { cases: TEN_CASES.slice(0, 5) });
    await Promise.all(held.map((h) => h.arrived));
    const cancelled = await d.api('POST', `/v1/evals/${res.body.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    expect(cancelled.body.cases.map((c: any) => c.status)).toEqual(['running', 'running', 'skipped', 'skipped', 'skipped']);
    await Promise.all(held.map((h) => h.disconnected));
    const ended = await (async () => {
      for (;;) {
        const e = (await d.api('GET', `/v1/evals/${res.body.id}`)).body;
        if (e.totals.running === 0) return e;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    expect(ended.cases.slice(0, 2).map((c: any) => [c.status, c.run_status, c.differences[0]])).toEqual([
      ['failed', 'cancelled', { path: 'run', expected: 'succeeded with a result', got: 'cancelled' }],
      ['failed', 'cancelled', { path: 'run', expected: 'succeeded with a result', got: 'cancelled' }],
    ]);
    expect(ended.status).toBe('cancelled');
    expect((await d.api('POST', `/v1/evals/${res.body.id}/cancel`)).body.status).toBe('cancelled');
    const events = withStore(d, (store) => store.events.orgAfter(d.orgId, 0, 10_000).filter((e) => e.type === 'eval.cancelled'));
    expect(events.map((e) => JSON.parse(e.data).id)).toEqual([res.body.id]);
  }, 60_000);
});
