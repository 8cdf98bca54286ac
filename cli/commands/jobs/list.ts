import type { Command } from 'commander';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { addListOptions, fetchList, listOptionsOf, printList, type ListOptions } from '../../list-options.js';
import { jobColumns } from './job-fields.js';

export interface ListJobsOptions extends ListOptions {
  project?: string;
}

export function registerJobsList(jobs: Command): void {
  addListOptions(jobs.command('list').description('list jobs, newest first').option('--project <id>', 'only the jobs of this project')).addHelpText('after', examples('errand jobs list', 'errand jobs list --project proj_01... --all --json')).action(
    async (flags: Parameters<typeof listOptionsOf>[0] & { project?: string }, cmd: Command) => {
      await listJobs(contextOf(cmd), { ...listOptionsOf(flags), ...(flags.project === undefined ? {} : { project: flags.project }) });
    },
  );
}

export async function listJobs(ctx: CliContext, options: ListJobsOptions): Promise<void> {
  const api = ctx.api();
  const filter = options.project === undefined ? {} : { project_id: options.project };
  printList(ctx, await fetchList(options, (q) => api.jobs.list({ ...q, ...filter })), jobColumns, 'no jobs');
}
