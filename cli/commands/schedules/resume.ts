import type { Command } from 'commander';
import { contextOf } from '../../context.js';
import { examples } from '../../help.js';
import { toggleSchedule } from './toggle-schedule.js';

export function registerSchedulesResume(schedules: Command): void {
  schedules
    .command('resume')
    .description("let a paused schedule fire again (firings missed while paused are not replayed)")
    .argument('<job-id>', 'job id (job_...)')
    .addHelpText('after', examples('errand schedules resume job_01...'))
    .action(async (jobId: string, _flags: unknown, cmd: Command) => {
      await toggleSchedule(contextOf(cmd), { jobId, enabled: true });
    });
}
