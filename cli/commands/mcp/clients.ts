import type { Command } from 'commander';
import { withDataDirectory } from '../../../src/admin-services.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';

export interface McpClientsOptions {
  org?: string;
}

export function registerMcpClients(mcp: Command): void {
  mcp
    .command('clients')
    .description('list the grants MCP clients hold: which client acts for which organisation, under which key')
    .option('--org <id or name>', 'only the grants of this organisation')
    .addHelpText('after', examples('errand mcp clients', 'errand mcp clients --org default --json'))
    .action(async (flags: { org?: string }, cmd: Command) => {
      await listClients(contextOf(cmd), flags.org === undefined ? {} : { org: flags.org });
    });
}

export async function listClients(ctx: CliContext, options: McpClientsOptions): Promise<void> {
  const grants = await withDataDirectory(ctx.home, ctx.env, ({ orgs, mcpGrants }) => mcpGrants.list(options.org === undefined ? undefined : orgs.resolve(options.org).id));
  ctx.out.result({ object: 'list', data: grants }, () =>
    ctx.out.table(
      grants,
      [
        { header: 'CLIENT', value: (g) => g.client_id },
        { header: 'NAME', value: (g) => g.client_name, max: 30 },
        { header: 'GRANT', value: (g) => g.id },
        { header: 'ORG', value: (g) => g.org_id },
        { header: 'KEY', value: (g) => g.key_id },
        { header: 'CREATED', value: (g) => g.created_at },
        { header: 'LAST TOKEN', value: (g) => g.last_token_at },
        { header: 'REVOKED', value: (g) => g.revoked_at },
      ],
      'no MCP client has signed in yet',
    ),
  );
}
