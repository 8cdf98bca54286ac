/**
 * A schedule's inputs are held to what a run of its job accepts (#10): setting a schedule whose inputs fail the job's
 * input_schema or placeholders is refused like a run; a job change that leaves an active schedule's inputs invalid
 * pauses it with a reason; firings refused when they fire are recorded and listed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '../../src/runtime/paths.js';
import { openStore } from '../../src/store/store.js';
import { expectError } from '../api/harness.js';
import { runCli } from '../cli/run-cli.js';
import { startDaemon, type TestDaemon } from '../fixtures/test-daemon.js';

const EVERY_SECOND = '* * * * * *';
const CITY_SCHEMA = { type: 'object', required: ['city'], properties: { city: { type: 'string' } } };

let d: TestDaemon;
let projectId: string;

beforeAll(async () => {
  d = await startDaemon({ env: { ERRAND_SANDBOX_DRIVER: 'local', ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '' } });
  projectId = (await d.api('GET', '/v1/projects')).body.data[0].id;
});
afterAll(async () => {
  await d?.cleanup();
});

const cli = (key: string, ...args: string[]) => runCli(['--home', d.home, ...args], { env: { ERRAND_API_URL: d.url, ERRAND_API_KEY: key } });

async function jobCount(): Promise<number> {
  return (await d.api('GET', '/v1/jobs?limit=200')).body.data.length;
}

describe('setting a schedule whose inputs a run of the job would refuse', () => {
  it.each([
    ['a member input_schema requires', { input_schema: CITY_SCHEMA, prompt: 'Weather' }, {}, 'missing_input', 'schedule.inputs.city'],
    ['a member of the wrong type', { input_schema: CITY_SCHEMA, prompt: 'Weather' }, { city: 5 }, 'invalid_inputs', 'schedule.inputs.city'],
    ["a value for the prompt's placeholder", { prompt: 'Weather in {{city}}' }, { town: 'Oslo' }, 'missing_input', 'schedule.inputs.city'],
  ])('answers POST /v1/jobs 400 when the schedule lacks %s, and creates no job', async (_what, job, inputs, code, param) => {
    const before = await jobCount();
    const res = await d.api('POST', '/v1/jobs', { project_id: projectId, name: 'bad inputs', ...job, schedule: { cron: '0 9 * * *', inputs } });
    expectError(res, 400, { type: 'invalid_request_error', code, param });
    expect(await jobCount()).toBe(before);
  });

  it('answers PATCH 400 naming the input, and keeps the schedule it had', async () => {
    const job = (await d.api('POST', '/v1/jobs', { project_id: projectId, name: 'j', prompt: 'Weather', input_schema: CITY_SCHEMA, schedule: { cron: '0 9 * * *', inputs: { city: 'Oslo' } } })).body;
    const res = await d.api('PATCH', `/v1/jobs/${job.id}`, { schedule: { cron: '0 10 * * *', inputs: { town: 'Oslo' } } });
    expectError(res, 400, { type: 'invalid_request_error', code: 'missing_input', param: 'schedule.inputs.city' });
    expect(res.body.error.message).toBe("schedule.inputs.city is required by the job's input_schema");
    expect((await d.api('GET', `/v1/jobs/${job.id}`)).body.schedule).toMatchObject({ cron: '0 9 * * *', inputs: { city: 'Oslo' }, enabled: true });
  });

  it('checks a schedule sent with a new input_schema against that schema', async () => {
    const job = (await d.api('POST', '/v1/jobs', { project_id: projectId, name: 'j', prompt: 'Weather' })).body;
    const res = await d.api('PATCH', `/v1/jobs/${job.id}`, { input_schema: CITY_SCHEMA, schedule: { cron: '0 9 * * *' } });
    expectError(res, 400, { type: 'invalid_request_error', code: 'missing_input', param: 'schedule.inputs.city' });
  });
});

describe('a job change that leaves its schedule unable to fire', () => {
  it('pauses the schedule with a reason, shown by the API and `errand schedules list`, until its inputs are set again', async () => {
    const job = (
      await d.api('POST', '/v1/jobs', { project_id: projectId, name: 'paused by a change', prompt: 'Weather in {{city}}', schedule: { cron: '0 9 * * *', inputs: { city: 'Oslo' } } })
    ).body;
    const changed = await d.api('PATCH', `/v1/jobs/${job.id}`, {
      input_schema: { type: 'object', required: ['city', 'units'], properties: { city: { type: 'string' }, units: { enum: ['metric', 'imperial'] } } },
    });
    expect(changed.status).toBe(200);
    const reason = "the job changed and the schedule's inputs no longer pass: schedule.inputs.units is required by the job's input_schema";
    expect(changed.body.schedule).toEqual({ cron: '0 9 * * *', timezone: 'UTC', inputs: { city: 'Oslo' }, enabled: false, paused_reason: reason });
    expect((await d.api('GET', `/v1/jobs/${job.id}`)).body.schedule.paused_reason).toBe(reason);

    const listed = await cli(d.key, 'schedules', 'list');
    expect(listed.code).toBe(0);
    const line = listed.stdout.split('\n').find((l) => l.startsWith(job.id))!;
    expect(line).toMatch(/\bpaused\b/);
    expect(line).toContain(reason);

    // The pause is in the event log, with the reason.
    const store = openStore(dataPaths(d.home).database);
    try {
      const events = store.events.orgAfter(d.orgId, 0, 10_000).filter((e) => e.type === 'schedule.paused');
      expect(events.map((e) => JSON.parse(e.data))).toContainEqual({ job_id: job.id, reason });
    } finally {
      store.close();
    }

    // Resuming with the same inputs is refused like setting them; new inputs resume it and clear the reason.
    const resume = await cli(d.key, 'schedules', 'resume', job.id);
    expect(resume.code).toBe(1);
    expect(resume.stderr).toContain('schedule.inputs.units');
    const fixed = await d.api('PATCH', `/v1/jobs/${job.id}`, { schedule: { cron: '0 9 * * *', inputs: { city: 'Oslo', units: 'metric' } } });
    expect(fixed.body.schedule).toMatchObject({ enabled: true, paused_reason: null });
  });

  it('leaves a schedule alone when its inputs still pass, and a paused one paused without a reason', async () => {
    const job = (
      await d.api('POST', '/v1/jobs', { project_id: projectId, name: 'fine', prompt: 'Weather in {{city}}', schedule: { cron: '0 9 * * *', inputs: { city: 'Oslo' } } })
    ).body;
    const changed = await d.api('PATCH', `/v1/jobs/${job.id}`, { input_schema: CITY_SCHEMA, prompt: 'Forecast for {{city}}' });
    expect(changed.body.schedule).toMatchObject({ enabled: true, paused_reason: null });

    const paused = (
      await d.api('POST', '/v1/jobs', { project_id: projectId, name: 'off', prompt: 'Hi', schedule: { cron: '0 9 * * *', enabled: false } })
    ).body;
    const after = await d.api('PATCH', `/v1/jobs/${paused.id}`, { prompt: 'Hi {{name}}' });
    expect(after.body.schedule).toMatchObject({ enabled: false, paused_reason: null });
  });
});

describe('firings refused when they fire', () => {
  it('are recorded and listed per job, newest first, through the API and `errand schedules firings`', async () => {
    // An organisation whose daily cap is 0: every firing is refused with 402 daily_cap_reached.
    const broke = d.createOrgWithKey(`broke-${Date.now()}`, { dailyCapUsd: 0 });
    const project = (await d.api('GET', '/v1/projects', undefined, { key: broke.key })).body.data[0].id;
    const job = (
      await d.api('POST', '/v1/jobs', { project_id: project, name: 'refused', prompt: 'Weather in {{city}}', schedule: { cron: EVERY_SECOND, inputs: { city: 'Oslo' } } }, { key: broke.key })
    ).body;
    let listed: any;
    const deadline = Date.now() + 15_000;
    do {
      await new Promise((resolve) => setTimeout(resolve, 300));
      listed = (await d.api('GET', `/v1/jobs/${job.id}/skipped_firings`, undefined, { key: broke.key })).body;
    } while (listed.data.length < 2 && Date.now() < deadline);
    await d.api('PATCH', `/v1/jobs/${job.id}`, { schedule: { cron: EVERY_SECOND, inputs: { city: 'Oslo' }, enabled: false } }, { key: broke.key });

    expect(listed.data.length).toBeGreaterThanOrEqual(2);
    const [newest, older] = listed.data;
    expect(newest).toMatchObject({ object: 'skipped_firing', job_id: job.id, code: 'daily_cap_reached', param: null });
    expect(newest.slot).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/);
    expect(newest.message).toContain('daily spend cap');
    expect(newest.event_id).toBeGreaterThan(older.event_id);
    expect(newest.slot > older.slot).toBe(true);
    expect((await d.api('GET', `/v1/runs?job_id=${job.id}`, undefined, { key: broke.key })).body.data).toEqual([]);

    const first = (await d.api('GET', `/v1/jobs/${job.id}/skipped_firings?limit=1`, undefined, { key: broke.key })).body;
    expect(first).toMatchObject({ has_more: true, next_cursor: String(newest.event_id) });
    const second = (await d.api('GET', `/v1/jobs/${job.id}/skipped_firings?limit=1&cursor=${first.next_cursor}`, undefined, { key: broke.key })).body;
    expect(second.data[0].event_id).toBe(older.event_id);

    const shown = await cli(broke.key, 'schedules', 'firings', job.id, '--json');
    expect(shown.code).toBe(0);
    expect(shown.json().data[0]).toMatchObject({ job_id: job.id, code: 'daily_cap_reached' });
  }, 30_000);

  it("are another organisation's business: 404 for its jobs", async () => {
    const job = (await d.api('POST', '/v1/jobs', { project_id: projectId, name: 'mine', prompt: 'Hi' })).body;
    const other = d.createOrgWithKey(`other-${Date.now()}`);
    expectError(await d.api('GET', `/v1/jobs/${job.id}/skipped_firings`, undefined, { key: other.key }), 404, { type: 'not_found_error' });
  });
});
