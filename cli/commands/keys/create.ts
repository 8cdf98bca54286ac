import { Option, type Command } from 'commander';
import { withDataDirectory } from '../../../src/admin-services.js';
import { pickOrg } from '../../pick-org.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { nonNegativeNumberFlag, positiveNumberFlag } from '../../flag-parsers.js';

export interface CreateKeyOptions {
  org?: string;
  name: string | null;
  monthlyCapUsd: number | null;
  maxRunCostUsd?: number | null;
  test?: boolean;
}

export function registerKeysCreate(keys: Command): void {
  keys
    .command('create')
    .description('mint an API key; it is shown once and stored only as a hash')
    .option('--org <id or name>', 'organisation (default: the only one, or "default")')
    .option('--name <label>', 'a label to recognise the key by')
    .option('--test', 'a test-mode key (ek_test_...): its runs call no model and start no browser, and what it makes is invisible to live keys (docs/api.md, Test mode)')
    .addOption(new Option('--monthly-cap-usd <usd>', "the key's monthly spend cap in USD, enforced: new runs are refused (402) once the key's spend this calendar month (UTC) reaches it, and a running run stops before a model call that would cross it").argParser(nonNegativeNumberFlag))
    .addOption(new Option('--max-run-cost-usd <usd>', "the max_cost_usd of the key's runs that give none (nor their job): a run stops (failed, budget_exceeded) before a model call that could pass it").argParser(positiveNumberFlag))
    .addHelpText('after', examples('errand keys create --name ci --monthly-cap-usd 50 --max-run-cost-usd 0.50', 'errand keys create --test --name ci', 'errand keys create --org acme --json'))
    .action(async (flags: { org?: string; name?: string; monthlyCapUsd?: number; maxRunCostUsd?: number; test?: boolean }, cmd: Command) => {
      await createKey(contextOf(cmd), {
        ...(flags.org === undefined ? {} : { org: flags.org }),
        name: flags.name ?? null,
        monthlyCapUsd: flags.monthlyCapUsd ?? null,
        maxRunCostUsd: flags.maxRunCostUsd ?? null,
        test: flags.test === true,
      });
    });
}

export async function createKey(ctx: CliContext, options: CreateKeyOptions): Promise<void> {
  const created = await withDataDirectory(ctx.home, ctx.env, ({ orgs, keys }) =>
    keys.create({ orgId: pickOrg(orgs, options.org).id, name: options.name, monthlyCapUsd: options.monthlyCapUsd, maxRunCostUsd: options.maxRunCostUsd ?? null, test: options.test === true }),
  );
  ctx.out.result({ id: created.id, key: created.key, org_id: created.org_id, livemode: created.livemode }, () => {
    const what = created.livemode ? 'API key' : 'test-mode API key';
    ctx.out.note(`created ${what} ${created.id} for ${created.org_id}; it is shown only this once:`);
    ctx.out.line(created.key);
  });
}
