import type { Command } from 'commander';
import type { InboxUpdateParams } from '../../api.js';
import { UsageError } from '../../cli-errors.js';
import { contextOf, type CliContext } from '../../context.js';
import { printInbox } from './columns.js';
import { examples } from '../../help.js';

interface UpdateInboxFlags {
  displayName?: string;
  clearDisplayName?: boolean;
  callbackUrl?: string;
  clearCallbackUrl?: boolean;
}

export function registerInboxesUpdate(inboxes: Command): void {
  inboxes
    .command('update')
    .description("change an inbox's display name or callback")
    .addHelpText('after', examples('errand inboxes update inb_01... --display-name \'Orders desk\'', 'errand inboxes update inb_01... --clear-callback-url'))
    .argument('<id>', 'inbox id (inb_...)')
    .option('--display-name <name>', 'the From name of its messages')
    .option('--clear-display-name', "use the organisation's name again")
    .option('--callback-url <url>', 'target of its email events')
    .option('--clear-callback-url', "send its events to the identity's callback again")
    .action(async (id: string, flags: UpdateInboxFlags, cmd: Command) => {
      const body: InboxUpdateParams = {
        ...(flags.displayName === undefined ? {} : { display_name: flags.displayName }),
        ...(flags.clearDisplayName ? { display_name: null } : {}),
        ...(flags.callbackUrl === undefined ? {} : { callback_url: flags.callbackUrl }),
        ...(flags.clearCallbackUrl ? { callback_url: null } : {}),
      };
      if (Object.keys(body).length === 0) throw new UsageError('nothing to change: give --display-name, --callback-url or a --clear- flag');
      await updateInbox(contextOf(cmd), id, body);
    });
}

export async function updateInbox(ctx: CliContext, id: string, body: InboxUpdateParams): Promise<void> {
  printInbox(ctx, await ctx.api().inboxes.update(id, body));
}
