import type { Command } from 'commander';
import { contextOf, type CliContext } from '../../context.js';
import { printInbox } from './columns.js';
import { examples } from '../../help.js';

export function registerInboxesGet(inboxes: Command): void {
  inboxes
    .command('get')
    .description('show an inbox')
    .addHelpText('after', examples('errand inboxes get inb_01...', 'errand inboxes get inb_01... --json'))
    .argument('<id>', 'inbox id (inb_...)')
    .action(async (id: string, _flags: unknown, cmd: Command) => {
      await getInbox(contextOf(cmd), id);
    });
}

export async function getInbox(ctx: CliContext, id: string): Promise<void> {
  printInbox(ctx, await ctx.api().inboxes.get(id));
}
