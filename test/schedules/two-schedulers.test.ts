import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isoTime, systemClock } from '../../src/clock.js';
import { createIdFactory } from '../../src/ids.js';
import { OrgsService } from '../../src/orgs/orgs-service.js';
import type { RunsService } from '../../src/runs/runs-service.js';
import { Scheduler } from '../../src/schedules/scheduler.js';
import type { Store } from '../../src/store/store.js';
import { inProcessRuns } from '../fixtures/in-process-runs.js';
import { tempDir } from '../fixtures/temp-dir.js';

/** What a second daemon on the same file would have. */
function daemonLike(home: string): { store: Store; runs: RunsService } {
  const { r, runs } = inProcessRuns(home);
  return { store: r.store, runs };
}

describe('two schedulers on one database (two daemons)', () => {
  const dir = tempDir();
  const closers: (() => unknown)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    dir.remove();
    vi.useRealTimers();
  });

  it('start each firing of a job exactly once, through the real run creation', async () => {
    // node-cron reads the time through Date and waits with setTimeout: fake both, from 0.4 s into a second.
    vi.useFakeTimers({ now: Date.parse('2026-11-22T09:00:00.400Z'), toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const a = daemonLike(dir.path);
    const b = daemonLike(dir.path);
    closers.push(() => a.store.close(), () => b.store.close());
    const orgId = new OrgsService({ store: a.store, clock: systemClock, ids: createIdFactory() }).create('acme').id;
    const now = isoTime(Date.now());
    const jobId = 'job_01m81zzzzzzzzzzzzzzzzzzzzz';
    a.store.jobs.insert({
      id: jobId, org_id: orgId, project_id: a.store.projects.getDefault(orgId)!.id, name: 'every second', description: null,
      prompt: 'Check the site', model: 'haiku', input_schema: null, output_schema: null, connections: null, timeout_s: null, recording: 1,
      schedule: JSON.stringify({ cron: '* * * * * *', timezone: 'UTC', enabled: true }), created_at: now, updated_at: now,
    });
    const logger = pino({ level: 'silent' });
    const schedulers = [new Scheduler({ jobs: a.store.jobs, runs: a.runs, logger }), new Scheduler({ jobs: b.store.jobs, runs: b.runs, logger })];
    for (const s of schedulers) closers.push(() => s.close());
    for (const s of schedulers) s.start();

    // Three slots (09:00:01 to :03) fall due; then every firing they started has finished.
    await vi.advanceTimersByTimeAsync(3_000);
    for (const s of schedulers) await s.idle();
    for (const s of schedulers) await s.close();
    const runs = a.store.runs.list(orgId, { limit: 200, cursor: null, jobId }).items;

    expect(runs).toHaveLength(3);
    // Both schedulers fired every slot; each run belongs to one whole-second slot key, and no slot has two runs.
    const keys = a.store.db.prepare('SELECT key, run_id FROM idempotency_keys WHERE scope = ?').all(`schedule:${jobId}`) as { key: string; run_id: string }[];
    expect(keys.map((k) => k.run_id).sort()).toEqual(runs.map((r) => r.id).sort());
    expect(keys.map((k) => k.key).sort()).toEqual([1, 2, 3].map((second) => `schedule:${jobId}:2026-11-22T09:00:0${second}.000Z`));
  });
});
