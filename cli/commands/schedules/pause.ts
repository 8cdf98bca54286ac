import type { Command } from 'commander';
import { contextOf } from '../../context.js';
import { examples } from '../../help.js';
import { toggleSchedule } from './toggle-schedule.js';

export function registerSchedulesPause(schedules: Command): void {
  schedules
    .command('pause')
    .description("stop a job's schedule from firing, keeping it")
    .argument('<job-id>', 'job id (job_...)')
    .addHelpText('after', examples('errand schedules pause job_01...'))
    .action(async (jobId: string, _flags: unknown, cmd: Command) => {
      await toggleSchedule(contextOf(cmd), { jobId, enabled: false });
    });
}
