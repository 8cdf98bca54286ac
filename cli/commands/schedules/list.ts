import type { Command } from 'commander';
import type { Job } from '../../api.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';

export function registerSchedulesList(schedules: Command): void {
  schedules
    .command('list')
    .description('list the jobs that carry a schedule')
    .option('--project <id>', 'only the jobs of this project')
    .addHelpText('after', examples('errand schedules list', 'errand schedules list --json'))
    .action(async (flags: { project?: string }, cmd: Command) => {
      await listSchedules(contextOf(cmd), flags);
    });
}

export async function listSchedules(ctx: CliContext, options: { project?: string }): Promise<void> {
  const api = ctx.api();
  const filter = options.project === undefined ? {} : { project_id: options.project };
  const scheduled: Job[] = [];
  for await (const job of api.jobs.list({ limit: 200, ...filter })) if (job.schedule) scheduled.push(job);
  ctx.out.result({ object: 'list', data: scheduled.map((j) => ({ job_id: j.id, name: j.name, schedule: j.schedule })) }, () =>
    ctx.out.table(
      scheduled,
      [
        { header: 'JOB', value: (j) => j.id },
        { header: 'NAME', value: (j) => j.name, max: 30 },
        { header: 'CRON', value: (j) => j.schedule?.cron },
        { header: 'TIMEZONE', value: (j) => j.schedule?.timezone },
        { header: 'STATE', value: (j) => (j.schedule?.enabled ? 'active' : 'paused') },
        { header: 'INPUTS', value: (j) => (j.schedule?.inputs ? JSON.stringify(j.schedule.inputs) : null), max: 40 },
        // Last and whole: it says what to fix.
        { header: 'PAUSED BECAUSE', value: (j) => j.schedule?.paused_reason, max: 2000 },
      ],
      'no scheduled jobs',
    ),
  );
}
