import type { Command } from 'commander';
import { contextOf, type CliContext } from '../../context.js';
import { printJob } from './job-fields.js';

export function registerJobsGet(jobs: Command): void {
  jobs
    .command('get')
    .description('show a job')
    .argument('<id>', 'job id (job_...)')
    .action(async (id: string, _flags: unknown, cmd: Command) => {
      await getJob(contextOf(cmd), { id });
    });
}

export async function getJob(ctx: CliContext, options: { id: string }): Promise<void> {
  printJob(ctx, await ctx.api().getJob(options.id));
}
