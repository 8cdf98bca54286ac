import type { Command } from 'commander';
import type { SendEmailBody } from '../../api-client.js';
import { contextOf, type CliContext } from '../../context.js';
import { addSendFlags, printSendResult, sendBodyOf, type SendFlags } from './send-flags.js';

export function registerEmailSend(email: Command): void {
  addSendFlags(email.command('send').description("send an email from the organisation's identity")).action(async (flags: SendFlags, cmd: Command) => {
    await sendEmail(contextOf(cmd), sendBodyOf(flags));
  });
}

export async function sendEmail(ctx: CliContext, body: SendEmailBody): Promise<void> {
  printSendResult(ctx, await ctx.api().sendEmail(body));
}
