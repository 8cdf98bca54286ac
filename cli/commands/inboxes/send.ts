import type { Command } from 'commander';
import type { EmailSendParams } from '../../api.js';
import { contextOf, type CliContext } from '../../context.js';
import { addSendFlags, printSendResult, sendBodyOf, type SendFlags } from '../email/send-flags.js';
import { examples } from '../../help.js';

export function registerInboxesSend(inboxes: Command): void {
  addSendFlags(inboxes.command('send').description('send an email from an inbox').addHelpText('after', examples('errand inboxes send inb_01... --to ada@example.com --subject Hello --text \'Hi Ada\'', 'errand inboxes send inb_01... --to ada@example.com --subject Invoice --html @invoice.html --json')).argument('<id>', 'inbox id (inb_...)')).action(
    async (id: string, flags: SendFlags, cmd: Command) => {
      await sendFromInbox(contextOf(cmd), id, sendBodyOf(flags));
    },
  );
}

export async function sendFromInbox(ctx: CliContext, id: string, body: EmailSendParams): Promise<void> {
  printSendResult(ctx, await ctx.api().inboxes.send(id, body));
}
