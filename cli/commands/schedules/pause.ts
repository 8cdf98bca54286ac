import type { Command } from 'commander';
import { contextOf } from '../../context.js';
import { toggleSchedule } from './toggle-schedule.js';

export function registerSchedulesPause(schedules: Command): void {
  schedules
    .command('pause')
    .description("stop a job's schedule from firing, keeping it")
    .argument('<job-id>', 'job id (job_...)')
    .action(async (jobId: string, _flags: unknown, cmd: Command) => {
      await toggleSchedule(contextOf(cmd), { jobId, enabled: false });
    });
}
