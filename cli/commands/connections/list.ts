import type { Command } from 'commander';
import { contextOf, type CliContext } from '../../context.js';
import { addListOptions, fetchList, listOptionsOf, printList, type ListOptions } from '../../list-options.js';
import { connectionColumns } from './connection-view.js';
import { examples } from '../../help.js';

export function registerConnectionsList(connections: Command): void {
  addListOptions(connections.command('list').description('list connections with their authentication status, newest first').addHelpText('after', examples('errand connections list', 'errand connections list --all --json'))).action(
    async (flags: Parameters<typeof listOptionsOf>[0], cmd: Command) => {
      await listConnections(contextOf(cmd), listOptionsOf(flags));
    },
  );
}

export async function listConnections(ctx: CliContext, options: ListOptions): Promise<void> {
  const api = ctx.api();
  printList(ctx, await fetchList(options, (q) => api.connections.list(q)), connectionColumns, 'no connections');
}
