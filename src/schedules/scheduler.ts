import { createTask, type Logger as CronLogger, type ScheduledTask, type TaskContext } from 'node-cron';
import type { Logger } from 'pino';
import { ErrandError } from '../errors.js';
import type { EventBus } from '../events.js';
import type { JobRow } from '../store/jobs-store.js';
import { validateSchedule, type Schedule } from './schedule-schema.js';

/** The part of RunsService the scheduler uses. */
export interface ScheduledRunStarter {
  createScheduledRun(
    orgId: string,
    jobId: string,
    body: { inputs?: object; callback_url?: string },
    idempotencyKey: string,
  ): Promise<{ body: { task_id: string; status: string; poll_url: string; billing: unknown }; replayed: boolean }>;
}

export interface SchedulerOptions {
  jobs: { listScheduled(): JobRow[] };
  runs: ScheduledRunStarter;
  logger: Logger;
  /** Where `wake.jobs_changed` is announced; without it, call `sync()` after changing jobs. */
  events?: EventBus;
  /** Told of every run this scheduler started (not of those another daemon already started). */
  onFiring?: (firing: Firing) => void;
  /** Records a firing that started no run, durably (SkippedFirings). */
  recordSkipped?: (orgId: string, jobId: string, slot: string, error: Error) => void;
}

/** What one firing did: started a run, found it already started (another daemon, a restart), or skipped it. */
export type FiringOutcome =
  | { kind: 'started'; runId: string }
  | { kind: 'replayed'; runId: string }
  | { kind: 'skipped'; code: string; message: string };

/** A firing that started a run. */
export interface Firing {
  orgId: string;
  jobId: string;
  /** The slot's time, RFC 3339. */
  slot: string;
  runId: string;
}

/** The idempotency key of a firing: the same for every scheduler that sees this slot, and only for it. */
export function firingKey(jobId: string, slotMs: number): string {
  return `schedule:${jobId}:${new Date(slotMs).toISOString()}`;
}

/**
 * The slot a firing belongs to, floored to the expression's resolution (seconds for 6 fields, minutes
 * otherwise), so two daemons whose timers woke a few milliseconds apart compute the same key.
 */
export function firingSlot(cron: string, firedAt: Date): number {
  const resolution = cron.trim().split(/\s+/).length === 6 ? 1000 : 60_000;
  return Math.floor(firedAt.getTime() / resolution) * resolution;
}

interface Entry {
  signature: string;
  task: ScheduledTask;
}

/**
 * Runs the jobs' cron schedules with node-cron: one task per enabled schedule. Every firing asks RunsService for
 * a run under a deterministic idempotency key, so a restart or a second daemon never starts one firing twice.
 * Firings that fell while no daemon ran are not replayed: node-cron only looks forward from `start()`.
 */
export class Scheduler {
  private readonly entries = new Map<string, Entry>();
  /** Firings under way: close() waits for them, so that none writes to a store being closed. */
  private readonly firing = new Set<Promise<FiringOutcome>>();
  private closed = false;
  private unsubscribe: (() => void) | null = null;

  /** node-cron logs to the console by default; the daemon's output is JSON lines, so route its messages to pino. */
  private readonly cronLogger: CronLogger;

  constructor(private readonly o: SchedulerOptions) {
    const log = o.logger.child({ component: 'node-cron' });
    this.cronLogger = {
      info: (message) => log.info(message),
      warn: (message) => log.warn(message),
      error: (message, err) => log.error({ err: err ?? (message instanceof Error ? message : undefined) }, String(message)),
      debug: (message, err) => log.debug({ err }, String(message)),
    };
  }

  start(): void {
    if (this.closed || this.unsubscribe !== null) return;
    this.unsubscribe = this.o.events?.on('wake.jobs_changed', () => this.sync()) ?? (() => undefined);
    this.sync();
  }

  /** Brings the running tasks in line with the jobs table; call after a job is created, changed or deleted. */
  sync(): void {
    if (this.closed) return;
    const wanted = new Map<string, { job: JobRow; schedule: Schedule; signature: string }>();
    for (const job of this.o.jobs.listScheduled()) {
      const schedule = parseSchedule(job, this.o.logger);
      if (schedule === null || !schedule.enabled) continue;
      wanted.set(job.id, { job, schedule, signature: `${job.org_id}\n${job.schedule}` });
    }
    for (const [jobId, entry] of this.entries) {
      if (wanted.get(jobId)?.signature !== entry.signature) {
        this.entries.delete(jobId);
        void this.destroy(entry.task);
      }
    }
    for (const [jobId, { job, schedule, signature }] of wanted) {
      if (this.entries.has(jobId)) continue;
      let task: ScheduledTask;
      try {
        validateSchedule(schedule);
        task = createTask(schedule.cron, (ctx: TaskContext) => (this.closed ? undefined : this.track(this.fire(job.org_id, jobId, schedule, ctx.date))), {
          timezone: schedule.timezone,
          name: `schedule:${jobId}`,
          logger: this.cronLogger,
        });
      } catch (err) {
        // Only reachable for rows written before validation existed or by hand; one bad job must not stop the rest.
        this.o.logger.error({ job_id: jobId, error: (err as Error).message }, 'job schedule is invalid; it will not fire');
        continue;
      }
      this.entries.set(jobId, { signature, task });
      void task.start();
    }
  }

  /** Job ids with a running task. */
  activeJobs(): string[] {
    return [...this.entries.keys()];
  }

  /**
   * Resolves once no firing is under way. A clock that was moved on (fake timers in tests) has started the firings it
   * made due; after this they have started their runs or been recorded as skipped.
   */
  async idle(): Promise<void> {
    while (this.firing.size > 0) await Promise.all(this.firing);
  }

  private track(firing: Promise<FiringOutcome>): Promise<FiringOutcome> {
    this.firing.add(firing);
    void firing.finally(() => this.firing.delete(firing));
    return firing;
  }

  /** Starts the run of one firing. Public so that a firing's handling can be exercised without waiting for a clock. */
  async fire(orgId: string, jobId: string, schedule: Pick<Schedule, 'cron' | 'inputs' | 'callback_url'>, firedAt: Date): Promise<FiringOutcome> {
    const slot = firingSlot(schedule.cron, firedAt);
    const key = firingKey(jobId, slot);
    const log = { job_id: jobId, org_id: orgId, slot: new Date(slot).toISOString() };
    try {
      const body: { inputs?: object; callback_url?: string } = {};
      if (schedule.inputs !== undefined) body.inputs = schedule.inputs;
      if (schedule.callback_url != null) body.callback_url = schedule.callback_url;
      const result = await this.o.runs.createScheduledRun(orgId, jobId, body, key);
      if (result.replayed) {
        this.o.logger.debug({ ...log, run_id: result.body.task_id }, 'scheduled firing already started elsewhere');
        return { kind: 'replayed', runId: result.body.task_id };
      }
      this.o.logger.info({ ...log, run_id: result.body.task_id }, 'scheduled run started');
      try {
        this.o.onFiring?.({ orgId, jobId, slot: log.slot, runId: result.body.task_id });
      } catch (recordErr) {
        this.o.logger.error({ ...log, err: recordErr }, 'could not record a schedule firing');
      }
      return { kind: 'started', runId: result.body.task_id };
    } catch (err) {
      const code = err instanceof ErrandError ? err.code : 'internal_error';
      const message = (err as Error).message;
      if (err instanceof ErrandError) this.o.logger.warn({ ...log, code, message }, 'scheduled firing skipped');
      else this.o.logger.error({ ...log, err }, 'scheduled firing failed');
      try {
        this.o.recordSkipped?.(orgId, jobId, log.slot, err as Error);
      } catch (recordErr) {
        this.o.logger.error({ ...log, err: recordErr }, 'could not record a skipped firing');
      }
      return { kind: 'skipped', code, message };
    }
  }

  /** Stops every task and waits for the firings under way; no firing starts after it resolves. Safe to call repeatedly. */
  async close(): Promise<void> {
    this.closed = true;
    this.unsubscribe?.();
    const tasks = [...this.entries.values()].map((e) => e.task);
    this.entries.clear();
    await Promise.all(tasks.map((t) => this.destroy(t)));
    await this.idle();
  }

  private async destroy(task: ScheduledTask): Promise<void> {
    try {
      await task.destroy();
    } catch (err) {
      this.o.logger.error({ err, task: task.name }, 'could not stop a schedule task');
    }
  }
}

function parseSchedule(job: JobRow, logger: Logger): Schedule | null {
  if (job.schedule === null) return null;
  try {
    const raw = JSON.parse(job.schedule) as Partial<Schedule>;
    if (typeof raw.cron !== 'string') throw new Error('no cron expression');
    return {
      cron: raw.cron,
      timezone: raw.timezone ?? 'UTC',
      enabled: raw.enabled ?? true,
      ...(raw.inputs !== undefined ? { inputs: raw.inputs } : {}),
      ...(raw.callback_url !== undefined ? { callback_url: raw.callback_url } : {}),
    };
  } catch (err) {
    logger.error({ job_id: job.id, err }, 'job has an unreadable schedule; it will not fire');
    return null;
  }
}
