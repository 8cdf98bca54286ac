import type { Command } from 'commander';
import { contextOf, type CliContext } from '../../../context.js';
import { examples } from '../../../help.js';

export function registerDomainRemove(domain: Command): void {
  domain
    .command('remove')
    .description('send from the relay domain again')
    .addHelpText('after', examples('errand email domain remove', 'errand email domain remove --json'))
    .action(async (_flags: unknown, cmd: Command) => {
      await removeDomain(contextOf(cmd));
    });
}

export async function removeDomain(ctx: CliContext): Promise<void> {
  const identity = await ctx.api().emails.identity.set({ domain: null });
  ctx.out.result(identity, () => ctx.out.line(`sending from ${identity.address}`));
}
