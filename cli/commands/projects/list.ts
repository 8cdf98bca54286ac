import type { Command } from 'commander';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { addListOptions, fetchList, listOptionsOf, printList, type ListOptions } from '../../list-options.js';
import { projectColumns } from './columns.js';

export function registerProjectsList(projects: Command): void {
  addListOptions(projects.command('list').description('list projects, newest first')).addHelpText('after', examples('errand projects list', 'errand projects list --all --json')).action(async (flags: Parameters<typeof listOptionsOf>[0], cmd: Command) => {
    await listProjects(contextOf(cmd), listOptionsOf(flags));
  });
}

export async function listProjects(ctx: CliContext, options: ListOptions): Promise<void> {
  const api = ctx.api();
  printList(ctx, await fetchList(options, (q) => api.projects.list(q)), projectColumns, 'no projects');
}
