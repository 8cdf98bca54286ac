import type { Command } from 'commander';
import { contextOf, type CliContext } from '../../context.js';
import { addListOptions, fetchList, listOptionsOf, printList, type ListOptions } from '../../list-options.js';
import { emailColumns } from './columns.js';
import { examples } from '../../help.js';

export function registerEmailList(email: Command): void {
  addListOptions(email.command('list').description('list sent emails (with transport=capture: the captured ones), newest first').addHelpText('after', examples('errand email list', 'errand email list --limit 5 --json'))).action(
    async (flags: Parameters<typeof listOptionsOf>[0], cmd: Command) => {
      await listEmails(contextOf(cmd), listOptionsOf(flags));
    },
  );
}

export async function listEmails(ctx: CliContext, options: ListOptions): Promise<void> {
  const api = ctx.api();
  printList(ctx, await fetchList(options, (q) => api.emails.list(q)), emailColumns, 'no emails sent');
}
