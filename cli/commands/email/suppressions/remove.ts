import type { Command } from 'commander';
import { contextOf, type CliContext } from '../../../context.js';
import { examples } from '../../../help.js';

export function registerSuppressionsRemove(suppressions: Command): void {
  suppressions
    .command('remove')
    .description('send to a suppressed recipient again')
    .addHelpText('after', examples('errand email suppressions remove ada@example.com', 'errand email suppressions remove ada@example.com --json'))
    .argument('<address>', 'the recipient')
    .action(async (address: string, _flags: unknown, cmd: Command) => {
      await removeSuppression(contextOf(cmd), address);
    });
}

export async function removeSuppression(ctx: CliContext, address: string): Promise<void> {
  const removed = await ctx.api().emails.suppressions.delete(address);
  ctx.out.result(removed, () => ctx.out.line(`${removed.address} is no longer suppressed`));
}
