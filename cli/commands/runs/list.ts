import type { Command } from 'commander';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { addListOptions, fetchList, listOptionsOf, printList, type ListOptions } from '../../list-options.js';
import { runColumns } from './envelope-view.js';

export interface ListRunsOptions extends ListOptions {
  job?: string;
}

export function registerRunsList(runs: Command): void {
  addListOptions(runs.command('list').description('list recent runs, newest first').option('--job <id>', 'only the runs of this job')).addHelpText('after', examples('errand runs list', 'errand runs list --job job_01... --limit 10 --json')).action(
    async (flags: Parameters<typeof listOptionsOf>[0] & { job?: string }, cmd: Command) => {
      await listRuns(contextOf(cmd), { ...listOptionsOf(flags), ...(flags.job === undefined ? {} : { job: flags.job }) });
    },
  );
}

export async function listRuns(ctx: CliContext, options: ListRunsOptions): Promise<void> {
  const api = ctx.api();
  const filter = options.job === undefined ? {} : { job_id: options.job };
  printList(ctx, await fetchList(options, (q) => api.runs.list({ ...q, ...filter })), runColumns, 'no runs');
}
