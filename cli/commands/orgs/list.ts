import type { Command } from 'commander';
import { withDataDirectory } from '../../../src/admin-services.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';

export function registerOrgsList(orgs: Command): void {
  orgs
    .command('list')
    .description('list the organisations of the data directory')
    .addHelpText('after', examples('errand orgs list', 'errand orgs list --json'))
    .action(async (_flags: unknown, cmd: Command) => {
      await listOrgs(contextOf(cmd));
    });
}

export async function listOrgs(ctx: CliContext): Promise<void> {
  const all = await withDataDirectory(ctx.home, ctx.env, ({ orgs }) => orgs.list());
  ctx.out.result({ object: 'list', data: all }, () =>
    ctx.out.table(
      all,
      [
        { header: 'ID', value: (o) => o.id },
        { header: 'NAME', value: (o) => o.name },
        { header: 'DAILY CAP USD', value: (o) => o.daily_cap_usd },
        { header: 'CREATED', value: (o) => o.created_at },
      ],
      'no organisations yet',
    ),
  );
}
