import type { Command } from 'commander';
import type { EmailSendParams } from '../../api.js';
import { contextOf, type CliContext } from '../../context.js';
import { addSendFlags, printSendResult, sendBodyOf, type SendFlags } from './send-flags.js';
import { examples } from '../../help.js';

export function registerEmailSend(email: Command): void {
  addSendFlags(email.command('send').description("send an email from the organisation's identity").addHelpText('after', examples('errand email send --to ada@example.com --subject Hello --text \'Hi Ada\'', 'errand email send --to ada@example.com --subject Report --markdown @report.md --send-at 2026-12-01T09:00:00Z --json'))).action(async (flags: SendFlags, cmd: Command) => {
    await sendEmail(contextOf(cmd), sendBodyOf(flags));
  });
}

export async function sendEmail(ctx: CliContext, body: EmailSendParams): Promise<void> {
  printSendResult(ctx, await ctx.api().emails.send(body));
}
