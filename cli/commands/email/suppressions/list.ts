import type { Command } from 'commander';
import { contextOf, type CliContext } from '../../../context.js';
import { addListOptions, fetchList, listOptionsOf, printList, type ListOptions } from '../../../list-options.js';
import { examples } from '../../../help.js';

export function registerSuppressionsList(suppressions: Command): void {
  addListOptions(suppressions.command('list').description('list suppressed recipients, by address').addHelpText('after', examples('errand email suppressions list', 'errand email suppressions list --all --json'))).action(async (flags: Parameters<typeof listOptionsOf>[0], cmd: Command) => {
    await listSuppressions(contextOf(cmd), listOptionsOf(flags));
  });
}

export async function listSuppressions(ctx: CliContext, options: ListOptions): Promise<void> {
  const api = ctx.api();
  printList(
    ctx,
    await fetchList(options, (q) => api.emails.suppressions.list(q)),
    [
      { header: 'ADDRESS', value: (s) => s.address },
      { header: 'REASON', value: (s) => s.reason },
      { header: 'DETAIL', value: (s) => s.detail, max: 50 },
      { header: 'EMAIL', value: (s) => s.email_id },
      { header: 'SINCE', value: (s) => s.created_at },
    ],
    'no suppressed recipients',
  );
}
