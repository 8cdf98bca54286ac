import type { Command } from 'commander';
import { contextOf, type CliContext } from '../../context.js';
import { resolveConnection } from './connection-view.js';

export function registerConnectionsDelete(connections: Command): void {
  connections
    .command('delete')
    .description('delete a connection and its secret')
    .argument('<connection>', 'id (conn_...) or name')
    .action(async (ref: string, _flags: unknown, cmd: Command) => {
      await deleteConnection(contextOf(cmd), { ref });
    });
}

export async function deleteConnection(ctx: CliContext, options: { ref: string }): Promise<void> {
  const api = ctx.api();
  const deleted = await api.deleteConnection(await resolveConnection(api, options.ref));
  ctx.out.result(deleted, () => ctx.out.line(`deleted connection ${deleted.id} and its secret`));
}
