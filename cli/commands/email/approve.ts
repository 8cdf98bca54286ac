import type { Command } from 'commander';
import { withDataDirectory } from '../../../src/admin-services.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';

export function registerEmailApprove(email: Command): void {
  email
    .command('approve')
    .description('send an email that waits for approval; the daemon sends it within seconds (local admin on the data directory)')
    .addHelpText('after', examples('errand email approve eml_01...', 'errand email approve eml_01... --json'))
    .argument('<id>', 'email id (msg_...)')
    .action(async (id: string, _flags: unknown, cmd: Command) => {
      await approve(contextOf(cmd), id);
    });
}

export async function approve(ctx: CliContext, id: string): Promise<void> {
  const outcome = await withDataDirectory(ctx.home, ctx.env, ({ emailApprovals }) => emailApprovals.approve(id));
  ctx.out.result(outcome, () => ctx.out.line(`${outcome.id} is approved and ${outcome.status === 'scheduled' ? 'scheduled' : 'on its way'}`));
}
