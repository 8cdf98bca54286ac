import type { Command } from 'commander';
import { withDataDirectory } from '../../../src/admin-services.js';
import { contextOf, type CliContext } from '../../context.js';
import { pickOrg } from '../../pick-org.js';
import { examples } from '../../help.js';

export function registerEmailPending(email: Command): void {
  email
    .command('pending')
    .description('list sends waiting for approval (local admin on the data directory)')
    .addHelpText('after', examples('errand email pending', 'errand email pending --org acme --json'))
    .option('--org <id or name>', 'only this organisation')
    .action(async (flags: { org?: string }, cmd: Command) => {
      await listPending(contextOf(cmd), flags.org);
    });
}

export async function listPending(ctx: CliContext, org: string | undefined): Promise<void> {
  const pending = await withDataDirectory(ctx.home, ctx.env, ({ orgs, emailApprovals }) => emailApprovals.pending(org === undefined ? null : pickOrg(orgs, org).id));
  ctx.out.result(pending, () =>
    ctx.out.table(
      pending,
      [
        { header: 'ID', value: (p) => p.id },
        { header: 'FROM', value: (p) => p.from_address },
        { header: 'TO', value: (p) => p.recipients.join(', '), max: 40 },
        { header: 'SUBJECT', value: (p) => p.subject, max: 40 },
        { header: 'CREATED', value: (p) => p.created_at },
      ],
      'no sends waiting for approval',
    ),
  );
}
