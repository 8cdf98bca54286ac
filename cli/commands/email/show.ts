import type { Command } from 'commander';
import { APIError } from '../../api.js';
import { contextOf, type CliContext } from '../../context.js';
import { printEmail, printReceivedEmail } from './columns.js';
import { examples } from '../../help.js';

export function registerEmailShow(email: Command): void {
  email
    .command('show')
    .description('show a sent email and the delivery state of each recipient (or the message itself with --raw), or a received one')
    .addHelpText('after', examples('errand email show eml_01...', 'errand email show eml_01... --raw'))
    .argument('<id>', 'email id (msg_...)')
    .option('--raw', 'print the message as it was built and sent (RFC 5322), e.g. a captured one')
    .action(async (id: string, flags: { raw?: boolean }, cmd: Command) => {
      await showEmail(contextOf(cmd), { id, raw: flags.raw === true });
    });
}

export async function showEmail(ctx: CliContext, options: { id: string; raw: boolean }): Promise<void> {
  const api = ctx.api();
  if (!options.raw) {
    try {
      return printEmail(ctx, await api.emails.get(options.id));
    } catch (err) {
      // Sent and received mail share the msg_ prefix: an id that is no send may be a message received.
      if (!(err instanceof APIError && err.status === 404)) throw err;
      return printReceivedEmail(ctx, await api.emails.received.get(options.id));
    }
  }
  const raw = await api.emails.raw(options.id);
  ctx.out.result({ id: options.id, raw }, () => ctx.out.line(raw.replace(/\r\n/g, '\n').trimEnd()));
}
