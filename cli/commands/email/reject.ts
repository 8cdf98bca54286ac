import type { Command } from 'commander';
import { withDataDirectory } from '../../../src/admin-services.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';

export function registerEmailReject(email: Command): void {
  email
    .command('reject')
    .description('never send an email that waits for approval (local admin on the data directory)')
    .addHelpText('after', examples('errand email reject eml_01...', 'errand email reject eml_01... --json'))
    .argument('<id>', 'email id (msg_...)')
    .action(async (id: string, _flags: unknown, cmd: Command) => {
      await reject(contextOf(cmd), id);
    });
}

export async function reject(ctx: CliContext, id: string): Promise<void> {
  const outcome = await withDataDirectory(ctx.home, ctx.env, ({ emailApprovals }) => emailApprovals.reject(id));
  ctx.out.result(outcome, () => ctx.out.line(`${outcome.id} is rejected; it will not be sent`));
}
