import type { Command } from 'commander';
import { examples } from '../../help.js';
import { registerSchedulesFirings } from './firings.js';
import { registerSchedulesList } from './list.js';
import { registerSchedulesRemove } from './remove.js';
import { registerSchedulesSet } from './set.js';
import { registerSchedulesPause } from './pause.js';
import { registerSchedulesResume } from './resume.js';

export function registerSchedules(program: Command): void {
  const schedules = program.command('schedules').description("jobs' cron schedules (through the API; the daemon fires them)").addHelpText('after', examples('errand schedules set job_01... --cron \'0 9 * * *\'', 'errand schedules list'));
  registerSchedulesList(schedules);
  registerSchedulesSet(schedules);
  registerSchedulesPause(schedules);
  registerSchedulesResume(schedules);
  registerSchedulesRemove(schedules);
  registerSchedulesFirings(schedules);
}
