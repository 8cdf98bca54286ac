import { UserError } from '../../cli-errors.js';
import type { CliContext } from '../../context.js';
import { printSchedule } from './print-schedule.js';

export interface ToggleScheduleOptions {
  jobId: string;
  enabled: boolean;
}

/** Pauses or resumes; doing what is already so only warns. */
export async function toggleSchedule(ctx: CliContext, options: ToggleScheduleOptions): Promise<void> {
  const api = ctx.api();
  const job = await api.jobs.get(options.jobId);
  if (!job.schedule) throw new UserError(`${job.id} has no schedule (set one with ${ctx.cliName} schedules set ${job.id} --cron ...)`, 'no_schedule');
  if (job.schedule.enabled === options.enabled) {
    ctx.out.warn(`the schedule of ${job.id} is already ${options.enabled ? 'active' : 'paused'}`);
    printSchedule(ctx, job);
    return;
  }
  printSchedule(ctx, await api.jobs.update(job.id, { schedule: { ...job.schedule, enabled: options.enabled } }));
}
