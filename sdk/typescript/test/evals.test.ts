import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Errand } from '../src/index.js';
import { startSdkDaemon, type SdkDaemon } from './sdk-daemon.js';

let daemon: SdkDaemon;
let client: Errand;

beforeAll(async () => {
  daemon = await startSdkDaemon();
  client = new Errand({ apiKey: daemon.key, baseUrl: daemon.url });
});
afterAll(async () => {
  await daemon?.stop();
});

describe('evals', () => {
  it('S13 runs and grades cases, compares with a baseline, lists, reports, and runs the kept cases', async () => {
    const project = await client.projects.create({ name: `s13-${Date.now()}` });
    const job = await client.jobs.create({ project_id: project.id, name: 'echo', prompt: 'Say whether it is ok', output_schema: { type: 'object', properties: { ok: { type: 'boolean' } } } });

    const first = await client.evals.createAndWait(
      job.id,
      { cases: [{ name: 'ok', expect: { equals: { ok: true } } }, { name: 'not ok', expect: { members: { ok: { equals: false } } } }] },
      { timeoutMs: 50_000, pollIntervalMs: 200 },
    );
    expect(first).toMatchObject({ object: 'eval', status: 'completed', totals: { cases: 2, passed: 1, failed: 1, pass_rate: 0.5 } });
    expect(first.cases[1]).toMatchObject({ label: 'not ok', status: 'failed', differences: [{ path: 'result.ok', expected: 'false', got: 'true' }] });

    const second = await client.evals.createAndWait(
      job.id,
      { cases: [{ name: 'ok', expect: { equals: { ok: true } } }, { name: 'not ok', expect: { members: { ok: { equals: true } } } }], baseline_id: first.id },
      { timeoutMs: 50_000, pollIntervalMs: 200 },
    );
    expect(second.comparison).toMatchObject({ baseline_id: first.id, newly_passing: ['not ok'], newly_failing: [], unchanged: 1, pass_rate_change: 0.5 });
    expect((await client.evals.get(second.id)).totals.pass_rate).toBe(1);
    const listed = [];
    for await (const e of client.evals.list(job.id)) listed.push(e.id);
    expect(listed).toEqual([second.id, first.id]);

    const html = await new Errand({ apiKey: 'ek_not_sent', baseUrl: daemon.url }).evals.report(second.report_url);
    expect(html).toContain('<svg class="chart"');

    const kept = await client.evals.cases.create(job.id, { name: 'kept', expect: { members: { ok: { equals: true } } } });
    const cases = [];
    for await (const c of client.evals.cases.list(job.id)) cases.push(c.id);
    expect(cases).toEqual([kept.id]);
    const third = await client.evals.createAndWait(job.id, {}, { timeoutMs: 50_000, pollIntervalMs: 200 });
    expect(third.cases.map((c) => [c.case_id, c.status])).toEqual([[kept.id, 'passed']]);
    expect(await client.evals.cases.delete(kept.id)).toMatchObject({ id: kept.id, deleted: true });
  });
});
