import type { Command } from 'commander';
import type { SimulateReplyParams } from '../../api.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { readText } from './send-flags.js';

export function registerEmailSimulateReply(email: Command): void {
  email
    .command('simulate-reply')
    .description('feed a reply to a sent email through the inbound path, as if its recipient had answered: try the reply webhook without a mail server')
    .argument('<id>', 'the sent email (msg_...)')
    .option('--text <text|@file>', 'the reply (default: a line saying it is simulated)')
    .option('--html <text|@file>', 'an HTML part beside the text')
    .option('--from <address>', "who replies (default: the email's first recipient)")
    .addHelpText(
      'after',
      `
The daemon takes the reply the way it takes one over SMTP: the reply address is checked as at RCPT TO, then the
message is parsed, its quoted history stripped and correlated with the send, stored, and announced as
email.received to the event stream (errand listen forwards it) and to the identity's or inbox's callback_url. Its
SPF, DKIM and DMARC verdicts are "none" (nothing was checked), and its webhook's body has "test": true.
${examples("errand email simulate-reply msg_01... --text 'Yes, Tuesday works.'", 'errand email simulate-reply msg_01... --from ada@example.com --html @reply.html --json')}`,
    )
    .action(async (id: string, flags: { text?: string; html?: string; from?: string }, cmd: Command) => {
      await simulateReply(contextOf(cmd), id, {
        ...(flags.text === undefined ? {} : { text: readText(flags.text, '--text') }),
        ...(flags.html === undefined ? {} : { html: readText(flags.html, '--html') }),
        ...(flags.from === undefined ? {} : { from: flags.from }),
      });
    });
}

export async function simulateReply(ctx: CliContext, id: string, body: SimulateReplyParams): Promise<void> {
  const received = await ctx.api().emails.simulateReply(id, body);
  ctx.out.result(received, () => {
    ctx.out.fields([
      ['received', received.message_id],
      ['kind', received.kind],
      ['in reply to', received.in_reply_to],
      ['from', received.from],
      ['to', received.to.join(', ')],
      ['subject', received.subject],
      ['reply text', received.reply_text],
    ]);
    ctx.out.note('announced as email.received: on the event stream, and as a webhook to the callback_url when one is set');
  });
}
