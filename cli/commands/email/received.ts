import { Option, type Command } from 'commander';
import type { ReceivedEmailListItem, ReceivedEmailListParams } from '../../api.js';
import { contextOf, type CliContext } from '../../context.js';
import { sinceFlag } from '../../flag-parsers.js';
import { examples } from '../../help.js';
import { addListOptions, fetchList, listOptionsOf, printList, type ListOptions } from '../../list-options.js';
import type { Column } from '../../output.js';

interface ReceivedFlags {
  inbox?: string;
  run?: string;
  since?: string;
}

export const receivedColumns: Column<ReceivedEmailListItem>[] = [
  { header: 'ID', value: (e) => e.message_id },
  { header: 'KIND', value: (e) => e.kind },
  { header: 'FROM', value: (e) => e.from, max: 40 },
  { header: 'SUBJECT', value: (e) => e.subject, max: 40 },
  { header: 'TO', value: (e) => e.run_id ?? e.inbox_id ?? e.to.join(', '), max: 40 },
  { header: 'RECEIVED', value: (e) => e.received_at },
];

export function registerEmailReceived(email: Command): void {
  addListOptions(
    email
      .command('received')
      .description('list received mail (replies, new mail to the identity and inboxes, mail to runs), newest first')
      .addHelpText('after', examples('errand email received', 'errand email received --since 2h', 'errand email received --inbox inb_01... --json'))
      .option('--inbox <id>', 'only mail to this inbox (inb_...)')
      .option('--run <id>', "only mail to this run's address (run_...)")
      .addOption(new Option('--since <time>', 'only mail received since then: an RFC 3339 time, or how long ago (30m, 2h, 7d)').argParser(sinceFlag())),
  ).action(async (flags: ReceivedFlags & Parameters<typeof listOptionsOf>[0], cmd: Command) => {
    await listReceived(contextOf(cmd), { ...(flags.inbox === undefined ? {} : { inbox: flags.inbox }), ...(flags.run === undefined ? {} : { run: flags.run }), ...(flags.since === undefined ? {} : { since: flags.since }) }, listOptionsOf(flags));
  });
}

export async function listReceived(ctx: CliContext, filters: Omit<ReceivedEmailListParams, 'limit' | 'cursor'>, options: ListOptions): Promise<void> {
  const api = ctx.api();
  printList(ctx, await fetchList(options, (q) => api.emails.received.list({ ...filters, ...q })), receivedColumns, 'no mail received');
}
