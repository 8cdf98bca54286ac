import { Option, type Command } from 'commander';
import { withDataDirectory } from '../../../src/admin-services.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { nonNegativeNumberFlag } from '../../flag-parsers.js';

export interface CreateOrgOptions {
  name: string;
  dailyCapUsd: number | null;
}

export function registerOrgsCreate(orgs: Command): void {
  orgs
    .command('create')
    .description('create an organisation (and its "API Runs" project) in the data directory')
    .argument('<name>', 'organisation name: letters, digits, spaces, dots, dashes, underscores')
    .addOption(new Option('--daily-cap-usd <usd>', 'spend the organisation may incur per UTC day').argParser(nonNegativeNumberFlag))
    .addHelpText('after', examples('errand orgs create acme', 'errand orgs create acme --daily-cap-usd 20 --json'))
    .action(async (name: string, flags: { dailyCapUsd?: number }, cmd: Command) => {
      await createOrg(contextOf(cmd), { name, dailyCapUsd: flags.dailyCapUsd ?? null });
    });
}

export async function createOrg(ctx: CliContext, options: CreateOrgOptions): Promise<void> {
  const org = await withDataDirectory(ctx.home, ctx.env, ({ orgs }) => orgs.create(options.name, { dailyCapUsd: options.dailyCapUsd }));
  ctx.out.result(org, () => ctx.out.line(`created organisation ${org.name} (${org.id})`));
}
