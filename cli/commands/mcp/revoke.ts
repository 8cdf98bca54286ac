import type { Command } from 'commander';
import { withDataDirectory } from '../../../src/admin-services.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';

export function registerMcpRevoke(mcp: Command): void {
  mcp
    .command('revoke')
    .description("revoke an MCP client's grants (or one grant) at once: its tokens stop working and it must sign in again")
    .argument('<client>', 'client id (mcpc_...) from errand mcp clients, or a grant id (mcpg_...)')
    .addHelpText('after', examples('errand mcp revoke mcpc_01...', 'errand mcp revoke mcpg_01... --json'))
    .action(async (id: string, _flags: unknown, cmd: Command) => {
      await revokeClient(contextOf(cmd), { id });
    });
}

export async function revokeClient(ctx: CliContext, options: { id: string }): Promise<void> {
  const { grants, revoked } = await withDataDirectory(ctx.home, ctx.env, ({ mcpGrants }) => mcpGrants.revoke(options.id));
  if (revoked === 0) ctx.out.warn(`${options.id} had no active grant; nothing changed`);
  ctx.out.result({ object: 'list', data: grants }, () => {
    if (revoked > 0) ctx.out.line(`revoked ${revoked} grant${revoked === 1 ? '' : 's'} of ${options.id}`);
  });
}
