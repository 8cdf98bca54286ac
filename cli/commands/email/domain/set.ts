import type { Command } from 'commander';
import { contextOf, type CliContext } from '../../../context.js';
import { examples } from '../../../help.js';

export function registerDomainSet(domain: Command): void {
  domain
    .command('set')
    .description('send from <username>@<domain> once its MX record names this installation (then run verify)')
    .addHelpText('after', examples('errand email domain set mail.example.com', 'errand email domain set mail.example.com --json'))
    .argument('<domain>', 'e.g. mail.example.com')
    .action(async (name: string, _flags: unknown, cmd: Command) => {
      await setDomain(contextOf(cmd), name);
    });
}

export async function setDomain(ctx: CliContext, name: string): Promise<void> {
  const identity = await ctx.api().emails.identity.set({ domain: name });
  ctx.out.result(identity, () => ctx.out.line(`sending domain set to ${name}; publish its records and run '${ctx.cliName} email domain verify'`));
}
