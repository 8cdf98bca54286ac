import type { Command } from 'commander';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { printSchedule } from './print-schedule.js';

export function registerSchedulesRemove(schedules: Command): void {
  schedules
    .command('remove')
    .description("delete a job's schedule (the job stays)")
    .argument('<job-id>', 'job id (job_...)')
    .addHelpText('after', examples('errand schedules remove job_01...'))
    .action(async (jobId: string, _flags: unknown, cmd: Command) => {
      await removeSchedule(contextOf(cmd), { jobId });
    });
}

export async function removeSchedule(ctx: CliContext, options: { jobId: string }): Promise<void> {
  const api = ctx.api();
  const job = await api.jobs.get(options.jobId);
  if (!job.schedule) {
    ctx.out.warn(`${job.id} has no schedule`);
    printSchedule(ctx, job);
    return;
  }
  printSchedule(ctx, await api.jobs.update(job.id, { schedule: null }));
}
