import type { Command } from 'commander';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';

export function registerJobsDelete(jobs: Command): void {
  jobs
    .command('delete')
    .description('delete a job and its schedule (its runs stay readable)')
    .argument('<id>', 'job id (job_...)')
    .addHelpText('after', examples('errand jobs delete job_01...'))
    .action(async (id: string, _flags: unknown, cmd: Command) => {
      await deleteJob(contextOf(cmd), { id });
    });
}

export async function deleteJob(ctx: CliContext, options: { id: string }): Promise<void> {
  const deleted = await ctx.api().jobs.delete(options.id);
  ctx.out.result(deleted, () => ctx.out.line(`deleted job ${deleted.id}`));
}
