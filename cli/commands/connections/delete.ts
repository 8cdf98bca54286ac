import type { Command } from 'commander';
import { contextOf, type CliContext } from '../../context.js';
import { resolveConnection } from './connection-view.js';
import { examples } from '../../help.js';

export function registerConnectionsDelete(connections: Command): void {
  connections
    .command('delete')
    .description('delete a connection and its secret')
    .addHelpText('after', examples('errand connections delete github', 'errand connections delete conn_01... --json'))
    .argument('<connection>', 'id (conn_...) or name')
    .action(async (ref: string, _flags: unknown, cmd: Command) => {
      await deleteConnection(contextOf(cmd), { ref });
    });
}

export async function deleteConnection(ctx: CliContext, options: { ref: string }): Promise<void> {
  const api = ctx.api();
  const deleted = await api.connections.delete(await resolveConnection(api, options.ref));
  ctx.out.result(deleted, () => ctx.out.line(`deleted connection ${deleted.id} and its secret`));
}
