import type { Command } from 'commander';
import type { Schedule } from '../../../src/schedules/schedule-schema.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { collect, parseKeyValues, readJsonObject } from '../../flag-parsers.js';
import { printSchedule } from './print-schedule.js';

export interface SetScheduleOptions {
  jobId: string;
  schedule: Schedule;
}

interface SetScheduleFlags {
  cron: string;
  timezone: string;
  input?: string[];
  inputJson?: string;
  callbackUrl?: string;
  paused?: boolean;
}

export function registerSchedulesSet(schedules: Command): void {
  schedules
    .command('set')
    .description("give a job a schedule (replacing any it had): every firing starts a run of the job")
    .argument('<job-id>', 'job id (job_...)')
    .requiredOption('--cron <expression>', "cron expression, 5 fields or 6 with seconds (e.g. '0 9 * * 1-5')")
    .option('--timezone <iana>', 'time zone the expression is read in', 'UTC')
    .option('--input <key=value>', 'an input every scheduled run receives (repeatable)', collect)
    .option('--input-json <json|@file>', 'inputs as a JSON object')
    .option('--callback-url <url>', 'webhook target of the scheduled runs')
    .option('--paused', 'store the schedule without firing it yet')
    .addHelpText('after', examples('errand schedules set job_01... --cron \'0 9 * * 1-5\' --timezone Europe/Paris --input sku=A-100', 'errand schedules set job_01... --cron \'*/30 * * * * *\' --paused'))
    .action(async (jobId: string, flags: SetScheduleFlags, cmd: Command) => {
      await setSchedule(contextOf(cmd), { jobId, schedule: scheduleOf(flags) });
    });
}

function scheduleOf(flags: SetScheduleFlags): Schedule {
  const inputs = { ...(flags.inputJson === undefined ? {} : readJsonObject(flags.inputJson, '--input-json')), ...parseKeyValues(flags.input ?? [], '--input') };
  return {
    cron: flags.cron,
    timezone: flags.timezone,
    ...(Object.keys(inputs).length === 0 ? {} : { inputs }),
    ...(flags.callbackUrl === undefined ? {} : { callback_url: flags.callbackUrl }),
    enabled: flags.paused !== true,
  };
}

export async function setSchedule(ctx: CliContext, options: SetScheduleOptions): Promise<void> {
  printSchedule(ctx, await ctx.api().jobs.update(options.jobId, { schedule: options.schedule }));
}
