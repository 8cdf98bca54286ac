import type { Command } from 'commander';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { addListOptions, fetchList, listOptionsOf, printList, type ListOptions } from '../../list-options.js';
import { fileColumns } from './columns.js';

export function registerFilesList(files: Command): void {
  addListOptions(files.command('list').description('list uploaded files, newest first'))
    .addHelpText('after', examples('errand files list', 'errand files list --all --json'))
    .action(async (flags: Parameters<typeof listOptionsOf>[0], cmd: Command) => {
      await listFiles(contextOf(cmd), listOptionsOf(flags));
    });
}

export async function listFiles(ctx: CliContext, options: ListOptions): Promise<void> {
  const api = ctx.api();
  printList(ctx, await fetchList(options, (q) => api.files.list(q)), fileColumns, 'no files');
}
