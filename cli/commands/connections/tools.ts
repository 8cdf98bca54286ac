import type { Command } from 'commander';
import { SilentExit } from '../../cli-errors.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { resolveConnection } from './connection-view.js';

export function registerConnectionsTools(connections: Command): void {
  connections
    .command('tools')
    .description("list an mcp connection's tools as runs are offered them (connects to its server now, like check)")
    .addHelpText('after', examples('errand connections tools docs', 'errand connections tools conn_01... --json'))
    .argument('<connection>', 'id (conn_...) or name')
    .addHelpText('after', '\nExit status: 0 when the server could be used, 1 otherwise (the detail says why).')
    .action(async (ref: string, _flags: unknown, cmd: Command) => {
      await connectionTools(contextOf(cmd), { ref });
    });
}

export async function connectionTools(ctx: CliContext, options: { ref: string }): Promise<void> {
  const api = ctx.api();
  const listed = await api.connections.tools(await resolveConnection(api, options.ref));
  ctx.out.result(listed, () => {
    ctx.out.table(
      listed.data,
      [
        { header: 'NAME IN RUNS', value: (t) => t.name },
        { header: 'TOOL', value: (t) => t.tool },
        { header: 'DESCRIPTION', value: (t) => t.description ?? t.title, max: 80 },
      ],
      `no tools: the connection is ${listed.auth_status}${listed.auth_detail === null ? '' : ` (${listed.auth_detail})`}`,
    );
  });
  if (listed.auth_status !== 'authenticated') throw new SilentExit(1);
}
