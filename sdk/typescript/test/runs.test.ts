import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Errand, type Run } from '../src/index.js';
import { startSdkDaemon, type SdkDaemon } from './sdk-daemon.js';

let daemon: SdkDaemon;
let errand: Errand;

beforeAll(async () => {
  daemon = await startSdkDaemon();
  errand = new Errand({ apiKey: daemon.key, baseUrl: daemon.url });
});
afterAll(async () => {
  await daemon?.stop();
});

describe('runs', () => {
  it('S01 creates a project, a job with an output_schema and a run of it, and waits for the typed envelope', async () => {
    const project = await errand.projects.create({ name: 'sdk scenarios' });
    expect(project).toMatchObject({ object: 'project', name: 'sdk scenarios', is_default: false });
    const job = await errand.jobs.create({
      project_id: project.id,
      name: 'check',
      prompt: 'Check {{site}}',
      output_schema: { type: 'object', required: ['ok'], properties: { ok: { type: 'boolean' } } },
    });
    expect(job).toMatchObject({ object: 'job', project_id: project.id });

    const run: Run = await errand.runs.createAndWait({ job_id: job.id, inputs: { site: 'example.com' } }, { timeoutMs: 50_000 });

    expect(run).toMatchObject({ object: 'run', status: 'succeeded', result: { ok: true }, confidence: 'high', job_id: job.id, project_id: project.id });
    expect(await errand.runs.get(run.task_id)).toMatchObject({ task_id: run.task_id, status: 'succeeded', result: { ok: true } });
  });

  it('S01 waits by polling as well as by following the stream', async () => {
    const created = await errand.runs.create({ prompt: 'Say ok' });
    const run = await errand.runs.wait(created.task_id, { poll: true, pollIntervalMs: 100, timeoutMs: 50_000 });
    expect(run).toMatchObject({ task_id: created.task_id, status: 'succeeded', result: { ok: true } });
  });

  it('S01 waits by polling when the run\'s stream is refused (429 too_many_streams)', async () => {
    const created = await errand.runs.create({ prompt: 'Say ok' });
    const path = `/v1/runs/${created.task_id}/events`;
    await daemon.fail('GET', path, 429, { retryAfter: '60', times: 5 });

    const run = await errand.runs.wait(created.task_id, { pollIntervalMs: 100, timeoutMs: 50_000 });

    expect(run).toMatchObject({ task_id: created.task_id, status: 'succeeded' });
    expect((await daemon.requests('GET', path)).map((r) => r.status)).toEqual([429]);
    expect((await daemon.requests('GET', `/v1/runs/${created.task_id}`)).length).toBeGreaterThanOrEqual(1);
  });

  it('S03 walks 450 runs page by page, each exactly once, and the pages agree with the iterator', async () => {
    // An organisation of its own, so that its list holds these runs only.
    {
      const client = new Errand({ apiKey: await daemon.otherOrgKey(), baseUrl: daemon.url });
      const made: string[] = [];
      for (let batch = 0; batch < 450; batch += 25) {
        const runs = await Promise.all(Array.from({ length: 25 }, (_, i) => client.runs.create({ prompt: `run ${batch + i}` })));
        made.push(...runs.map((r) => r.task_id));
      }

      const seen: string[] = [];
      for await (const run of client.runs.list({ limit: 100 })) seen.push(run.task_id);
      expect(seen).toHaveLength(450);
      expect(new Set(seen)).toEqual(new Set(made));
      // Newest first, as the API lists them.
      expect(seen).toEqual([...made].sort().reverse());

      const first = await client.runs.list({ limit: 200 });
      expect(first.data).toHaveLength(200);
      expect(first.has_more).toBe(true);
      expect(first.next_cursor).toBe(first.data[199]!.task_id);
      const pages: number[] = [];
      for await (const page of first.iterPages()) pages.push(page.data.length);
      expect(pages).toEqual([200, 200, 50]);
      const last = await (await first.getNextPage())!.getNextPage();
      expect(last!.hasNextPage()).toBe(false);
      expect(await last!.getNextPage()).toBeNull();
      // A cursor kept from an earlier page starts a list after that item.
      const resumed = await client.runs.list({ limit: 200, cursor: first.next_cursor! });
      expect(resumed.data.map((r) => r.task_id)).toEqual(seen.slice(200, 400));
    }
  });
});
