import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isoTime, systemClock } from '../../src/clock.js';
import { QuotaError } from '../../src/errors.js';
import { createIdFactory, type IdFactory } from '../../src/ids.js';
import { OrgsService } from '../../src/orgs/orgs-service.js';
import { firingKey, firingSlot, Scheduler, type ScheduledRunStarter } from '../../src/schedules/scheduler.js';
import type { Schedule } from '../../src/schedules/schedule-schema.js';
import { openStore, type Store } from '../../src/store/store.js';
import { tempDir } from '../fixtures/temp-dir.js';

/**
 * Stands in for RunsService#createScheduledRun (its end-to-end behaviour is tested through the daemon in
 * test/schedules/schedules-api.test.ts): it dedupes by the real idempotency store in one IMMEDIATE transaction,
 * which is what makes a firing start once across schedulers.
 */
class StubRuns implements ScheduledRunStarter {
  readonly started: { key: string; runId: string; body: object }[] = [];
  replays = 0;
  fail: Error | null = null;

  constructor(
    private readonly store: Store,
    private readonly ids: IdFactory,
  ) {}

  async createScheduledRun(orgId: string, _jobId: string, body: { inputs?: object; callback_url?: string }, key: string) {
    if (this.fail) throw this.fail;
    return this.store.transaction(() => {
      const found = this.store.idempotency.find(orgId, 'runs', key, 0);
      const runId = found?.run_id ?? this.ids('run');
      if (found) this.replays++;
      else {
        this.store.idempotency.put({ org_id: orgId, scope: 'runs', key, request_hash: 'schedule', run_id: runId, created_at: Date.now() });
        this.started.push({ key, runId, body });
      }
      return { body: { task_id: runId, status: 'queued', poll_url: `/v1/runs/${runId}`, billing: {} }, replayed: found !== undefined };
    });
  }
}

/** Fake time starts 0.4 s into a second: the every-second schedules below fire at each whole second after it. */
const START = Date.parse('2026-11-22T09:00:00.400Z');
const slotKey = (jobId: string, second: number) => `schedule:${jobId}:2026-11-22T09:00:0${second}.000Z`;

/**
 * Moves the fake clock on by `ms`, which fires every timer falling due meanwhile (node-cron's among them), and waits
 * until the firings those started have finished: what happened by then is all that will have happened.
 */
async function advance(ms: number, ...schedulers: Scheduler[]): Promise<void> {
  await vi.advanceTimersByTimeAsync(ms);
  for (const s of schedulers) await s.idle();
}

describe('Scheduler', () => {
  let dir: ReturnType<typeof tempDir>;
  let store: Store;
  let orgId: string;
  let projectId: string;
  const ids = createIdFactory();
  const logger = pino({ level: 'silent' });
  const closers: (() => Promise<void> | void)[] = [];

  beforeEach(() => {
    // node-cron reads the time through Date and waits with setTimeout; the store's own waits stay real.
    vi.useFakeTimers({ now: START, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    dir = tempDir();
    store = openStore(join(dir.path, 'errand.db'));
    orgId = new OrgsService({ store, clock: systemClock, ids }).create('acme').id;
    projectId = store.projects.getDefault(orgId)!.id;
  });

  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    store.close();
    dir.remove();
    vi.useRealTimers();
  });

  function insertJob(schedule: Partial<Schedule> & { cron: string }): string {
    const id = ids('job');
    const now = isoTime(Date.now());
    store.jobs.insert({
      id, org_id: orgId, project_id: projectId, name: 'nightly', description: null, prompt: 'Check the site', model: 'haiku',
      input_schema: null, output_schema: null, connections: null, timeout_s: null, recording: 1, schedule: JSON.stringify({ timezone: 'UTC', enabled: true, ...schedule }),
      created_at: now, updated_at: now,
    });
    return id;
  }

  function setSchedule(jobId: string, schedule: object): void {
    store.jobs.update(orgId, jobId, { schedule: JSON.stringify(schedule), updated_at: isoTime(Date.now()) });
  }

  function scheduler(on: Store = store): { scheduler: Scheduler; runs: StubRuns } {
    const runs = new StubRuns(on, ids);
    const s = new Scheduler({ jobs: on.jobs, runs, logger });
    closers.push(() => s.close());
    return { scheduler: s, runs };
  }

  it('starts a run of the job at every firing, keyed by the whole second it was scheduled for', async () => {
    const jobId = insertJob({ cron: '* * * * * *', inputs: { city: 'Paris' }, callback_url: 'https://example.com/hook' });
    const { scheduler: s, runs } = scheduler();
    s.start();
    expect(s.activeJobs()).toEqual([jobId]);
    await advance(2_000, s);
    // Missed firings are not replayed: nothing fires for the second the scheduler started in (09:00:00).
    expect(runs.started.map((r) => r.key)).toEqual([slotKey(jobId, 1), slotKey(jobId, 2)]);
    for (const { body } of runs.started) expect(body).toEqual({ inputs: { city: 'Paris' }, callback_url: 'https://example.com/hook' });
  });

  it('stops firing when the schedule is paused and starts again when it is resumed', async () => {
    const jobId = insertJob({ cron: '* * * * * *' });
    const { scheduler: s, runs } = scheduler();
    s.start();
    await advance(1_000, s);
    expect(runs.started.map((r) => r.key)).toEqual([slotKey(jobId, 1)]);

    setSchedule(jobId, { cron: '* * * * * *', timezone: 'UTC', enabled: false });
    s.sync();
    expect(s.activeJobs()).toEqual([]);
    // Five slots (09:00:02 to :06) pass while it is paused: a task left running would have fired at each.
    await advance(5_000, s);
    expect(runs.started.map((r) => r.key)).toEqual([slotKey(jobId, 1)]);

    setSchedule(jobId, { cron: '* * * * * *', timezone: 'UTC', enabled: true });
    s.sync();
    expect(s.activeJobs()).toEqual([jobId]);
    await advance(1_000, s);
    expect(runs.started.map((r) => r.key)).toEqual([slotKey(jobId, 1), slotKey(jobId, 7)]);
  });

  it('drops the task of a deleted job and picks up a new one on sync', async () => {
    const first = insertJob({ cron: '0 0 1 1 *' });
    const { scheduler: s } = scheduler();
    s.start();
    expect(s.activeJobs()).toEqual([first]);
    store.jobs.delete(orgId, first);
    const second = insertJob({ cron: '0 0 1 1 *', timezone: 'Asia/Tokyo' });
    s.sync();
    expect(s.activeJobs()).toEqual([second]);
  });

  it('fires each firing once when two schedulers (two daemons) share the database', async () => {
    const jobId = insertJob({ cron: '* * * * * *' });
    const second = openStore(join(dir.path, 'errand.db'));
    closers.push(() => second.close());
    const a = scheduler(store);
    const b = scheduler(second);
    a.scheduler.start();
    b.scheduler.start();
    await advance(3_000, a.scheduler, b.scheduler);
    await a.scheduler.close();
    await b.scheduler.close();

    // Both saw every slot: each started it or found it started by the other.
    expect(a.runs.started.length + a.runs.replays).toBe(3);
    expect(b.runs.started.length + b.runs.replays).toBe(3);
    const keys = [...a.runs.started, ...b.runs.started].map((r) => r.key);
    expect([...keys].sort()).toEqual([slotKey(jobId, 1), slotKey(jobId, 2), slotKey(jobId, 3)]);
    const rows = store.db.prepare("SELECT key FROM idempotency_keys WHERE scope = 'runs'").all() as { key: string }[];
    expect(rows.map((r) => r.key).sort()).toEqual([...keys].sort());
  });

  it('records a firing refused by caps as skipped, and carries on', async () => {
    const { scheduler: s, runs } = scheduler();
    runs.fail = new QuotaError('daily_cap_reached', 'The organisation reached its daily cap');
    const outcome = await s.fire(orgId, 'job_x', { cron: '*/5 * * * *' }, new Date('2026-11-22T09:05:00.250Z'));
    expect(outcome).toEqual({ kind: 'skipped', code: 'daily_cap_reached', message: 'The organisation reached its daily cap' });
    runs.fail = null;
    expect(await s.fire(orgId, 'job_x', { cron: '*/5 * * * *' }, new Date('2026-11-22T09:05:00.250Z'))).toMatchObject({ kind: 'started' });
    expect(await s.fire(orgId, 'job_x', { cron: '*/5 * * * *' }, new Date('2026-11-22T09:05:03.000Z'))).toMatchObject({ kind: 'replayed' });
    expect(runs.started.map((r) => r.key)).toEqual(['schedule:job_x:2026-11-22T09:05:00.000Z']);
  });

  it('ignores unreadable or invalid schedules instead of failing the others', () => {
    const good = insertJob({ cron: '0 0 1 1 *' });
    const bad = insertJob({ cron: '0 0 1 1 *' });
    store.jobs.update(orgId, bad, { schedule: '{not json', updated_at: isoTime(Date.now()) });
    insertJob({ cron: '61 * * * *' });
    insertJob({ cron: '0 0 1 1 *', timezone: 'Mars/Olympus_Mons' });
    const { scheduler: s } = scheduler();
    s.start();
    expect(s.activeJobs()).toEqual([good]);
  });
});

describe('firingSlot and firingKey', () => {
  it('floor the firing to the expression resolution', () => {
    const at = new Date('2026-11-22T09:05:42.731Z');
    expect(new Date(firingSlot('* * * * * *', at)).toISOString()).toBe('2026-11-22T09:05:42.000Z');
    expect(new Date(firingSlot('*/5 * * * *', at)).toISOString()).toBe('2026-11-22T09:05:00.000Z');
    expect(firingKey('job_1', Date.parse('2026-11-22T09:05:00.000Z'))).toBe('schedule:job_1:2026-11-22T09:05:00.000Z');
  });
});
