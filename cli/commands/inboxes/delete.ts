import type { Command } from 'commander';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';

export function registerInboxesDelete(inboxes: Command): void {
  inboxes
    .command('delete')
    .description('delete an inbox: its address stops receiving mail; its sent messages stay readable')
    .addHelpText('after', examples('errand inboxes delete inb_01...', 'errand inboxes delete inb_01... --json'))
    .argument('<id>', 'inbox id (inb_...)')
    .action(async (id: string, _flags: unknown, cmd: Command) => {
      await deleteInbox(contextOf(cmd), id);
    });
}

export async function deleteInbox(ctx: CliContext, id: string): Promise<void> {
  const deleted = await ctx.api().inboxes.delete(id);
  ctx.out.result(deleted, () => ctx.out.line(`deleted ${deleted.id}`));
}
