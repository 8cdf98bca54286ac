/**
 * Job schedules through the services the daemon wires together (JobsService and ProjectsService waking the
 * scheduler with `wake.jobs_changed`, the schedules subsystem, the real RunsService), on fake time. What
 * schedules-api.test.ts shows on a real daemon, here to the slot: every "it fires no more" is proven over slots that
 * passed, not seconds slept, and a daemon's downtime can last an hour.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createIdFactory } from '../../src/ids.js';
import { OrgsService } from '../../src/orgs/orgs-service.js';
import { schedulesSubsystem } from '../../src/schedules/schedules-subsystem.js';
import type { Scheduler } from '../../src/schedules/scheduler.js';
import { inProcessRuns, type InProcessRuns } from '../fixtures/in-process-runs.js';
import { tempDir } from '../fixtures/temp-dir.js';

const EVERY_SECOND = '* * * * * *';
/** 0.4 s into a second: an every-second schedule fires at each whole second after it. */
const START = Date.parse('2026-11-22T09:00:00.400Z');

describe('job schedules on the daemon services', () => {
  let dir: ReturnType<typeof tempDir>;
  let d: InProcessRuns;
  let orgId: string;
  let projectId: string;
  const closers: (() => unknown)[] = [];

  beforeEach(() => {
    // node-cron reads the time through Date and waits with setTimeout; the store's and schema worker's I/O stay real.
    vi.useFakeTimers({ now: START, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    dir = tempDir();
    d = inProcessRuns(dir.path);
    orgId = new OrgsService({ store: d.r.store, clock: d.r.clock, ids: createIdFactory() }).create('acme').id;
    projectId = d.r.store.projects.getDefault(orgId)!.id;
  });

  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    d.r.store.close();
    dir.remove();
    vi.useRealTimers();
  });

  /** The schedules subsystem as the daemon starts it, on the same bus as the jobs and projects services. */
  function startSchedules(): { scheduler: Scheduler; close: () => Promise<void> } {
    const schedules = schedulesSubsystem({ resources: d.r, eventLog: d.eventLog, announcer: d.announcer, jobs: d.jobs, runs: d.runs });
    void schedules.start?.();
    const close = async () => {
      await schedules.close?.();
    };
    closers.push(close);
    return { scheduler: schedules.services.scheduler, close };
  }

  /** Moves the fake clock on by `ms`, firing every slot that falls due, and waits until those firings have finished. */
  async function advance(scheduler: Scheduler, ms: number): Promise<void> {
    await vi.advanceTimersByTimeAsync(ms);
    await scheduler.idle();
  }

  async function createJob(city: string, fields: Record<string, unknown> = {}) {
    return d.jobs.create(orgId, { project_id: projectId, name: `weather-${city}`, prompt: 'Weather in {{city}}', schedule: { cron: EVERY_SECOND, timezone: 'UTC', enabled: true, inputs: { city } }, ...fields });
  }

  /** The slot of each run of the job, from its firing key, as the second of 09:00 it fell in. */
  function slotsOf(jobId: string): number[] {
    const rows = d.r.store.db
      .prepare(`SELECT k.key AS key FROM runs LEFT JOIN idempotency_keys k ON k.run_id = runs.id WHERE runs.job_id = ? ORDER BY runs.created_at`)
      .all(jobId) as { key: string }[];
    return rows.map((r) => (Date.parse(r.key.slice(`schedule:${jobId}:`.length)) - Date.parse('2026-11-22T09:00:00.000Z')) / 1000);
  }

  it('stops firing while enabled is false and fires again once re-enabled', async () => {
    const { scheduler } = startSchedules();
    const job = await createJob('Oslo');
    await advance(scheduler, 2_000);
    expect(slotsOf(job.id)).toEqual([1, 2]);

    const paused = await d.jobs.update(orgId, job.id, { schedule: { cron: EVERY_SECOND, timezone: 'UTC', inputs: { city: 'Oslo' }, enabled: false } });
    expect(paused.schedule).toMatchObject({ enabled: false });
    await advance(scheduler, 5_000);
    expect(slotsOf(job.id)).toEqual([1, 2]);

    await d.jobs.update(orgId, job.id, { schedule: { cron: EVERY_SECOND, timezone: 'UTC', inputs: { city: 'Oslo' }, enabled: true } });
    await advance(scheduler, 2_000);
    expect(slotsOf(job.id)).toEqual([1, 2, 8, 9]);
  });

  it('stops firing when the schedule is removed', async () => {
    const { scheduler } = startSchedules();
    const job = await createJob('Rome');
    await advance(scheduler, 1_000);
    expect((await d.jobs.update(orgId, job.id, { schedule: null })).schedule).toBeNull();
    await advance(scheduler, 5_000);
    expect(slotsOf(job.id)).toEqual([1]);
  });

  it('stops firing when the job is deleted, and its runs stay', async () => {
    const { scheduler } = startSchedules();
    const job = await createJob('Lima');
    await advance(scheduler, 2_000);
    d.jobs.delete(orgId, job.id);
    await advance(scheduler, 5_000);
    expect(slotsOf(job.id)).toEqual([1, 2]);
    expect(d.r.store.runs.list(orgId, { limit: 10, cursor: null, jobId: job.id }).items).toHaveLength(2);
  });

  it("stops firing when the job's project is deleted", async () => {
    const { scheduler } = startSchedules();
    const project = d.projects.create(orgId, { name: 'doomed' });
    const job = await createJob('Pisa', { project_id: project.id });
    await advance(scheduler, 1_000);
    d.projects.delete(orgId, project.id);
    await advance(scheduler, 5_000);
    expect(slotsOf(job.id)).toEqual([1]);
    expect(scheduler.activeJobs()).toEqual([]);
  });

  it('leaves other jobs firing when one job is paused', async () => {
    const { scheduler } = startSchedules();
    const a = await createJob('Kyiv');
    const b = await createJob('Riga');
    await advance(scheduler, 1_000);
    await d.jobs.update(orgId, a.id, { schedule: { cron: EVERY_SECOND, timezone: 'UTC', inputs: { city: 'Kyiv' }, enabled: false } });
    await advance(scheduler, 3_000);
    expect(slotsOf(a.id)).toEqual([1]);
    expect(slotsOf(b.id)).toEqual([1, 2, 3, 4]);
  });

  it('after a restart keeps firing with one run per slot, and does not replay the firings it missed while down', async () => {
    const first = startSchedules();
    const job = await createJob('Bern');
    await advance(first.scheduler, 2_000);
    await first.close();
    // Down for an hour: 3,600 slots to miss.
    await vi.advanceTimersByTimeAsync(3_600_000);
    const second = startSchedules();
    await advance(second.scheduler, 2_000);
    expect(slotsOf(job.id)).toEqual([1, 2, 3_603, 3_604]);
  });
});
