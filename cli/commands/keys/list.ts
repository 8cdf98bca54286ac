import type { Command } from 'commander';
import { withDataDirectory } from '../../../src/admin-services.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';

export interface ListKeysOptions {
  org?: string;
}

export function registerKeysList(keys: Command): void {
  keys
    .command('list')
    .description('list API keys (never their secrets)')
    .option('--org <id or name>', 'only the keys of this organisation (its live and its test-mode keys)')
    .addHelpText('after', examples('errand keys list', 'errand keys list --org acme --json'))
    .action(async (flags: { org?: string }, cmd: Command) => {
      await listKeys(contextOf(cmd), flags.org === undefined ? {} : { org: flags.org });
    });
}

export async function listKeys(ctx: CliContext, options: ListKeysOptions): Promise<void> {
  const all = await withDataDirectory(ctx.home, ctx.env, ({ orgs, keys }) => keys.list(options.org === undefined ? undefined : orgs.resolve(options.org).id));
  ctx.out.result({ object: 'list', data: all }, () =>
    ctx.out.table(
      all,
      [
        { header: 'ID', value: (k) => k.id },
        { header: 'ORG', value: (k) => k.org_id },
        { header: 'NAME', value: (k) => k.name },
        { header: 'MODE', value: (k) => (k.livemode ? 'live' : 'test') },
        { header: 'MONTHLY CAP USD', value: (k) => k.monthly_cap_usd },
        { header: 'RUN MAX USD', value: (k) => k.max_run_cost_usd },
        { header: 'CREATED', value: (k) => k.created_at },
        { header: 'LAST USED', value: (k) => k.last_used_at },
        { header: 'REVOKED', value: (k) => k.revoked_at },
      ],
      'no API keys yet',
    ),
  );
}
