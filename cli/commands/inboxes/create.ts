import type { Command } from 'commander';
import type { InboxCreateParams } from '../../api.js';
import { contextOf, type CliContext } from '../../context.js';
import { printInbox } from './columns.js';
import { examples } from '../../help.js';

export function registerInboxesCreate(inboxes: Command): void {
  inboxes
    .command('create')
    .description('create an inbox')
    .addHelpText('after', examples('errand inboxes create --username support --display-name \'Support\'', 'errand inboxes create --username orders --callback-url https://example.com/hooks/mail --json'))
    .option('--username <name>', "its address's local part (default: the identity's username and a random suffix)")
    .option('--display-name <name>', "the From name of its messages (default: the organisation's name)")
    .option('--callback-url <url>', "target of its email events (default: the identity's callback)")
    .action(async (flags: { username?: string; displayName?: string; callbackUrl?: string }, cmd: Command) => {
      await createInbox(contextOf(cmd), {
        ...(flags.username === undefined ? {} : { username: flags.username }),
        ...(flags.displayName === undefined ? {} : { display_name: flags.displayName }),
        ...(flags.callbackUrl === undefined ? {} : { callback_url: flags.callbackUrl }),
      });
    });
}

export async function createInbox(ctx: CliContext, body: InboxCreateParams): Promise<void> {
  printInbox(ctx, await ctx.api().inboxes.create(body));
}
