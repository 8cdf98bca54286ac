/**
 * Job schedules through the real, compiled daemon (issue 4): an every-second cron fires runs of the job, pauses,
 * resumes, goes away with the schedule or the job, survives a restart without a second run for any slot, and every
 * scheduled run sends its webhook. The daemon has no model, so every run fails at once and never piles up. The same
 * behaviours slot by slot, on fake time, are in job-schedules.test.ts.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '../../src/runtime/paths.js';
import { openStore } from '../../src/store/store.js';
import { startDaemon, type TestDaemon } from '../fixtures/test-daemon.js';
import { signingSecretOf, WebhookReceiver } from '../fixtures/webhook-receiver.js';

const EVERY_SECOND = '* * * * * *';
const TERMINAL = ['succeeded', 'failed', 'cancelled'];

let d: TestDaemon;
let projectId: string;
const jobsToDelete: string[] = [];
/** An every-second job that fires throughout: the beat the absence checks wait on (expectNoMoreFirings). */
let witnessId: string;

beforeAll(async () => {
  d = await startDaemon({ env: { ERRAND_SANDBOX_DRIVER: 'local', ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '', ERRAND_WEBHOOKS_RETRY_SCHEDULE_S: '0,1,1,1' } });
  projectId = (await d.api('GET', '/v1/projects')).body.data[0].id;
  const witness = await d.api('POST', '/v1/jobs', { project_id: projectId, name: 'witness', prompt: 'Tick', schedule: { cron: EVERY_SECOND } });
  expect(witness.status).toBe(201);
  witnessId = witness.body.id;
});

afterEach(async () => {
  // A firing job left behind would keep adding runs to the cases after it.
  for (const id of jobsToDelete.splice(0)) await d.api('DELETE', `/v1/jobs/${id}`);
});

afterAll(async () => {
  await d?.cleanup();
});

let jobCounter = 0;

async function createJob(fields: Record<string, unknown>): Promise<any> {
  const res = await d.api('POST', '/v1/jobs', { project_id: projectId, name: `scheduled-${++jobCounter}`, prompt: 'Weather in {{city}}', ...fields });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  jobsToDelete.push(res.body.id);
  return res.body;
}

async function runsOf(jobId: string): Promise<any[]> {
  const res = await d.api('GET', `/v1/runs?job_id=${jobId}&limit=200`);
  expect(res.status).toBe(200);
  return res.body.data;
}

async function waitForRuns(jobId: string, atLeast: number, timeoutMs = 20_000): Promise<any[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const runs = await runsOf(jobId);
    if (runs.length >= atLeast) return runs;
    if (Date.now() > deadline) throw new Error(`job ${jobId} has ${runs.length} runs, expected at least ${atLeast}\n${d.logs().slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The job's runs once every one of them has ended. */
async function allFinished(jobId: string, timeoutMs = 20_000): Promise<any[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const runs = await runsOf(jobId);
    if (runs.every((r) => TERMINAL.includes(r.status))) return runs;
    if (Date.now() > deadline) throw new Error(`runs of job ${jobId} did not all end: ${JSON.stringify(runs.map((r) => r.status))}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The slot (ms) of each firing of the job, from the idempotency keys its runs were recorded under. */
function slotsOf(jobId: string): number[] {
  return firingKeysOf(jobId)
    .filter((r) => r.key !== null && r.key.startsWith(`schedule:${jobId}:`))
    .map((r) => Date.parse(r.key.slice(`schedule:${jobId}:`.length)));
}

/**
 * That the job fires no more after a change the daemon answered at `changedAt`: no firing of it has a slot after
 * that, once the witness, which fires at the same beats, has fired for the second slot after the change. A task of the
 * job left running would have fired at the first of them along with the witness, a whole second earlier. Answers the
 * job's run count, which must then stay put.
 */
async function expectNoMoreFirings(jobId: string, changedAt: number): Promise<number> {
  const firstAfter = Math.floor(changedAt / 1000) * 1000 + 1000;
  const deadline = Date.now() + 20_000;
  while (!slotsOf(witnessId).some((slot) => slot >= firstAfter + 1000)) {
    if (Date.now() > deadline) throw new Error(`the witness did not fire after ${new Date(firstAfter).toISOString()}\n${d.logs().slice(-3000)}`);
    await sleep(100);
  }
  expect(slotsOf(jobId).filter((slot) => slot > changedAt).map((slot) => new Date(slot).toISOString())).toEqual([]);
  return (await runsOf(jobId)).length;
}

/** Each run of the job with the idempotency key its firing was recorded under, read from the database. */
function firingKeysOf(jobId: string): { run_id: string; key: string; source: string; prompt: string }[] {
  const store = openStore(dataPaths(d.home).database);
  try {
    return store.db
      .prepare(
        `SELECT runs.id AS run_id, runs.source AS source, runs.prompt AS prompt, k.key AS key
           FROM runs LEFT JOIN idempotency_keys k ON k.run_id = runs.id
          WHERE runs.job_id = ? ORDER BY runs.created_at`,
      )
      .all(jobId) as { run_id: string; key: string; source: string; prompt: string }[];
  } finally {
    store.close();
  }
}

describe('POST /v1/jobs with a schedule', () => {
  it('fires runs of the job every second, each carrying the job id and the schedule inputs', async () => {
    const job = await createJob({ schedule: { cron: EVERY_SECOND, timezone: 'UTC', inputs: { city: 'Paris' } } });
    expect(job.schedule).toMatchObject({ cron: EVERY_SECOND, timezone: 'UTC', inputs: { city: 'Paris' } });
    expect(job.schedule.enabled ?? true).toBe(true);

    const runs = await waitForRuns(job.id, 3);
    for (const run of runs) expect(run).toMatchObject({ object: 'run', job_id: job.id, project_id: projectId, name: job.name });
    const rows = firingKeysOf(job.id);
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const row of rows) {
      expect(row.source).toBe('schedule');
      expect(row.prompt).toBe('Weather in Paris');
      expect(row.key).toMatch(new RegExp(`^schedule:${job.id}:\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.000Z$`));
    }
  });

  it('fills the schedule defaults: timezone UTC, enabled true, and no paused_reason', async () => {
    const job = await createJob({ prompt: 'Weather', schedule: { cron: '0 9 * * 1-5' } });
    const expected = { cron: '0 9 * * 1-5', timezone: 'UTC', enabled: true, paused_reason: null };
    expect(job.schedule).toEqual(expected);
    expect((await d.api('GET', `/v1/jobs/${job.id}`)).body.schedule).toEqual(expected);
    const patched = await d.api('PATCH', `/v1/jobs/${job.id}`, { schedule: { cron: '30 8 * * *', timezone: 'Asia/Tokyo' } });
    expect(patched.body.schedule).toEqual({ cron: '30 8 * * *', timezone: 'Asia/Tokyo', enabled: true, paused_reason: null });
  });

  it.each([
    ['an invalid cron expression', { cron: 'every day at noon' }, 'schedule.cron'],
    ['a cron expression with a field out of range', { cron: '61 * * * *' }, 'schedule.cron'],
    ['an unknown time zone', { cron: '0 9 * * *', timezone: 'Mars/Olympus_Mons' }, 'schedule.timezone'],
  ])('answers 400 with param for %s and creates no job', async (_what, schedule, param) => {
    const before = (await d.api('GET', '/v1/jobs?limit=200')).body.data.length;
    const res = await d.api('POST', '/v1/jobs', { project_id: projectId, name: 'bad schedule', prompt: 'Hi', schedule });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', param });
    expect((await d.api('GET', '/v1/jobs?limit=200')).body.data.length).toBe(before);
  });

  it('answers 400 with param when PATCH sets an invalid schedule, and keeps the old one', async () => {
    const job = await createJob({ schedule: { cron: '0 9 * * 1-5', timezone: 'Europe/Paris', inputs: { city: 'Lyon' } } });
    const cron = await d.api('PATCH', `/v1/jobs/${job.id}`, { schedule: { cron: '* * *', inputs: { city: 'Lyon' } } });
    expect(cron.status).toBe(400);
    expect(cron.body.error.param).toBe('schedule.cron');
    const zone = await d.api('PATCH', `/v1/jobs/${job.id}`, { schedule: { cron: '0 9 * * *', timezone: 'Nowhere/Special', inputs: { city: 'Lyon' } } });
    expect(zone.status).toBe(400);
    expect(zone.body.error.param).toBe('schedule.timezone');
    expect((await d.api('GET', `/v1/jobs/${job.id}`)).body.schedule).toMatchObject({ cron: '0 9 * * 1-5', timezone: 'Europe/Paris' });
  });
});

describe('PATCH and DELETE /v1/jobs/{id} on a scheduled job', () => {
  it('stops firing while enabled is false and fires again once re-enabled', async () => {
    const schedule = { cron: EVERY_SECOND, timezone: 'UTC', inputs: { city: 'Oslo' } };
    const job = await createJob({ schedule });
    await waitForRuns(job.id, 2);

    const paused = await d.api('PATCH', `/v1/jobs/${job.id}`, { schedule: { ...schedule, enabled: false } });
    expect(paused.status).toBe(200);
    expect(paused.body.schedule).toMatchObject({ enabled: false });
    const settled = await expectNoMoreFirings(job.id, Date.now());

    const resumed = await d.api('PATCH', `/v1/jobs/${job.id}`, { schedule: { ...schedule, enabled: true } });
    expect(resumed.status).toBe(200);
    await waitForRuns(job.id, settled + 2);
  });

  it('stops firing when PATCH removes the schedule', async () => {
    const job = await createJob({ schedule: { cron: EVERY_SECOND, inputs: { city: 'Rome' } } });
    await waitForRuns(job.id, 1);
    const removed = await d.api('PATCH', `/v1/jobs/${job.id}`, { schedule: null });
    expect(removed.status).toBe(200);
    expect(removed.body.schedule).toBeNull();
    await expectNoMoreFirings(job.id, Date.now());
  });

  it('stops firing when the job is deleted, and its runs stay readable', async () => {
    const job = await createJob({ schedule: { cron: EVERY_SECOND, inputs: { city: 'Lima' } } });
    await waitForRuns(job.id, 1);
    const deleted = await d.api('DELETE', `/v1/jobs/${job.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id: job.id, object: 'job', livemode: true, deleted: true });
    const settled = await expectNoMoreFirings(job.id, Date.now());
    expect(settled).toBeGreaterThanOrEqual(1);
  });

  it("stops firing when the job's project is deleted", async () => {
    const project = await d.api('POST', '/v1/projects', { name: `doomed-${Date.now()}` });
    expect(project.status).toBe(201);
    const job = await createJob({ project_id: project.body.id, schedule: { cron: EVERY_SECOND, inputs: { city: 'Pisa' } } });
    await waitForRuns(job.id, 1);
    expect((await d.api('DELETE', `/v1/projects/${project.body.id}`)).status).toBe(200);
    const changedAt = Date.now();
    expect((await d.api('GET', `/v1/jobs/${job.id}`)).status).toBe(404);
    await expectNoMoreFirings(job.id, changedAt);
  });

  it('leaves other jobs firing when one job is paused', async () => {
    const a = await createJob({ schedule: { cron: EVERY_SECOND, inputs: { city: 'Kyiv' } } });
    const b = await createJob({ schedule: { cron: EVERY_SECOND, inputs: { city: 'Riga' } } });
    await waitForRuns(a.id, 1);
    await waitForRuns(b.id, 1);
    expect((await d.api('PATCH', `/v1/jobs/${a.id}`, { schedule: { cron: EVERY_SECOND, inputs: { city: 'Kyiv' }, enabled: false } })).status).toBe(200);
    const pausedAt = Date.now();
    await expectNoMoreFirings(a.id, pausedAt);
    // b fired at the slots the witness waited for.
    expect(slotsOf(b.id).filter((slot) => slot > pausedAt).length).toBeGreaterThanOrEqual(2);
  });
});

describe('firing keys and the API', () => {
  it("does not let an API run's idempotency_key claim a future firing of the schedule", async () => {
    const job = await createJob({ schedule: { cron: EVERY_SECOND, inputs: { city: 'Graz' } } });
    const slot = new Date(Math.floor(Date.now() / 1000) * 1000 + 3000).toISOString();
    const squatter = await d.api('POST', `/v1/jobs/${job.id}/runs`, { inputs: { city: 'Nowhere' }, idempotency_key: `schedule:${job.id}:${slot}` });
    expect(squatter.status).toBe(202);
    expect(Date.now(), 'the API run must be created before its slot comes').toBeLessThan(Date.parse(slot));

    const deadline = Date.parse(slot) + 10_000;
    let fired: { run_id: string; prompt: string } | undefined;
    while (fired === undefined && Date.now() < deadline) {
      fired = firingKeysOf(job.id).find((r) => r.source === 'schedule' && r.key === `schedule:${job.id}:${slot}`);
      if (fired === undefined) await sleep(100);
    }
    expect(fired, `no scheduled run for the slot ${slot}`).toBeDefined();
    expect(fired!.run_id).not.toBe(squatter.body.task_id);
    expect(fired!.prompt).toBe('Weather in Graz');
  });
});

describe('a schedule across a daemon restart', () => {
  it('keeps firing after a restart with exactly one run per slot, and does not replay the firings it missed', async () => {
    const job = await createJob({ schedule: { cron: EVERY_SECOND, inputs: { city: 'Bern' } } });
    const before = (await waitForRuns(job.id, 2)).length;
    const stoppedAt = Date.now();
    await d.stop();
    // Down for as long as a stop and a start take; job-schedules.test.ts keeps a daemon down for an hour of fake time.
    await d.restart();
    const upAt = Date.now();
    await waitForRuns(job.id, before + 3);

    const rows = firingKeysOf(job.id);
    const slots = rows.map((r) => {
      expect(r.key, `run ${r.run_id} has no firing key`).toMatch(new RegExp(`^schedule:${job.id}:`));
      return Date.parse(r.key.slice(`schedule:${job.id}:`.length));
    });
    // One run per slot, every slot a whole second: a firing counted twice under two keys would show here.
    expect(slots.every((s) => s % 1000 === 0)).toBe(true);
    expect(new Set(slots).size).toBe(rows.length);
    const runs = await runsOf(job.id);
    expect(runs.length).toBe(rows.length);
    const span = (Math.max(...slots) - Math.min(...slots)) / 1000 + 1;
    expect(rows.length).toBeLessThanOrEqual(span);
    for (const run of runs) {
      const slot = slots[rows.findIndex((r) => r.run_id === run.task_id)]!;
      expect(Date.parse(run.created_at)).toBeGreaterThanOrEqual(slot);
    }
    // Firings missed while no daemon ran are not replayed: the old daemon stops its schedules on SIGTERM (within
    // the second under way), and the new one starts them just before it listens.
    const missed = slots.filter((s) => s > stoppedAt + 1000 && s < upAt - 1000).map((s) => new Date(s).toISOString());
    expect(missed).toEqual([]);
  });
});

describe('webhooks of scheduled runs', () => {
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start([signingSecretOf(d.home, d.orgId)]);
  });

  afterAll(async () => {
    await receiver?.close();
  });

  it("sends every scheduled run's webhook to the schedule's callback_url, each verified", async () => {
    const job = await createJob({ schedule: { cron: EVERY_SECOND, inputs: { city: 'Baku' }, callback_url: receiver.url('/scheduled') } });
    await waitForRuns(job.id, 3);
    expect((await d.api('DELETE', `/v1/jobs/${job.id}`)).status).toBe(200);
    await expectNoMoreFirings(job.id, Date.now());
    const runs = await allFinished(job.id);

    const deliveries = await receiver.waitFor(
      (ds) => {
        const got = ds.filter((x) => x.path === '/scheduled');
        return new Set(got.map((x) => x.json?.data?.task_id)).size >= runs.length && got;
      },
      `a webhook for each of ${runs.length} runs`,
    );
    expect(receiver.unverified()).toEqual([]);
    expect(new Set(deliveries.map((x) => x.json.data.task_id))).toEqual(new Set(runs.map((r) => r.task_id)));
    expect(new Set(deliveries.map((x) => x.id)).size).toBe(runs.length);
    for (const delivery of deliveries) {
      const run = runs.find((r) => r.task_id === delivery.json.data.task_id);
      expect(delivery.json).toEqual({ event: 'run.failed', livemode: true, data: run });
      expect(delivery.json.data.job_id).toBe(job.id);
    }
  });
});
