import type { Command } from 'commander';
import { SilentExit } from '../../cli-errors.js';
import { contextOf, type CliContext } from '../../context.js';
import { printConnection, resolveConnection } from './connection-view.js';
import { examples } from '../../help.js';

export function registerConnectionsCheck(connections: Command): void {
  connections
    .command('check')
    .description('check a connection now (mcp: connect and list tools; oauth: refresh the token) and show its status')
    .addHelpText('after', examples('errand connections check docs', 'errand connections check conn_01... --json'))
    .argument('<connection>', 'id (conn_...) or name')
    .addHelpText('after', '\nExit status: 0 when the connection is authenticated, 1 otherwise (the status and detail say why).')
    .action(async (ref: string, _flags: unknown, cmd: Command) => {
      await checkConnection(contextOf(cmd), { ref });
    });
}

export async function checkConnection(ctx: CliContext, options: { ref: string }): Promise<void> {
  const api = ctx.api();
  const checked = await api.connections.check(await resolveConnection(api, options.ref));
  printConnection(ctx, checked);
  if (checked.auth_status !== 'authenticated') throw new SilentExit(1);
}
