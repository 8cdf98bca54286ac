import type { Command } from 'commander';
import { contextOf, type CliContext } from '../../context.js';
import { printConnection, resolveConnection } from './connection-view.js';
import { examples } from '../../help.js';

export function registerConnectionsGet(connections: Command): void {
  connections
    .command('get')
    .description('show a connection (never its secret)')
    .addHelpText('after', examples('errand connections get github', 'errand connections get conn_01... --json'))
    .argument('<connection>', 'id (conn_...) or name')
    .action(async (ref: string, _flags: unknown, cmd: Command) => {
      await getConnection(contextOf(cmd), { ref });
    });
}

export async function getConnection(ctx: CliContext, options: { ref: string }): Promise<void> {
  const api = ctx.api();
  printConnection(ctx, await api.connections.get(await resolveConnection(api, options.ref)));
}
