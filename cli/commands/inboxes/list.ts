import type { Command } from 'commander';
import { contextOf, type CliContext } from '../../context.js';
import { addListOptions, fetchList, listOptionsOf, printList, type ListOptions } from '../../list-options.js';
import { inboxColumns } from './columns.js';
import { examples } from '../../help.js';

export function registerInboxesList(inboxes: Command): void {
  addListOptions(inboxes.command('list').description('list inboxes, newest first').addHelpText('after', examples('errand inboxes list', 'errand inboxes list --all --json'))).action(async (flags: Parameters<typeof listOptionsOf>[0], cmd: Command) => {
    await listInboxes(contextOf(cmd), listOptionsOf(flags));
  });
}

export async function listInboxes(ctx: CliContext, options: ListOptions): Promise<void> {
  const api = ctx.api();
  printList(ctx, await fetchList(options, (q) => api.inboxes.list(q)), inboxColumns, 'no inboxes');
}
