import type { Job } from '../../api.js';
import type { CliContext } from '../../context.js';

export function printSchedule(ctx: CliContext, job: Job): void {
  ctx.out.result({ job_id: job.id, name: job.name, schedule: job.schedule }, () => {
    if (!job.schedule) ctx.out.line(`${job.id} (${job.name}) has no schedule`);
    else ctx.out.line(`${job.id} (${job.name}): ${job.schedule.cron} ${job.schedule.timezone}, ${job.schedule.enabled ? 'active' : 'paused'}`);
  });
}
