import type { Command } from 'commander';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { printJob } from './job-fields.js';

export function registerJobsGet(jobs: Command): void {
  jobs
    .command('get')
    .description('show a job')
    .argument('<id>', 'job id (job_...)')
    .addHelpText('after', examples('errand jobs get job_01...', 'errand jobs get job_01... --json | jq .schedule'))
    .action(async (id: string, _flags: unknown, cmd: Command) => {
      await getJob(contextOf(cmd), { id });
    });
}

export async function getJob(ctx: CliContext, options: { id: string }): Promise<void> {
  printJob(ctx, await ctx.api().jobs.get(options.id));
}
