import type { Command } from 'commander';
import { withDataDirectory } from '../../../src/admin-services.js';
import { UsageError } from '../../cli-errors.js';
import { contextOf, type CliContext } from '../../context.js';
import { ORG_OPTION_HELP, pickOrg } from '../../pick-org.js';
import { examples } from '../../help.js';

export function registerEmailApproval(email: Command): void {
  email
    .command('approval')
    .description("whether the organisation's sends wait for approval (local admin on the data directory)")
    .addHelpText('after', examples('errand email approval', 'errand email approval on --org acme'))
    .argument('[setting]', 'on or off; without it, show the setting')
    .option('--org <id or name>', ORG_OPTION_HELP)
    .action(async (setting: string | undefined, flags: { org?: string }, cmd: Command) => {
      if (setting !== undefined && setting !== 'on' && setting !== 'off') throw new UsageError(`the setting is on or off, not '${setting}'`);
      await approval(contextOf(cmd), { ...(setting === undefined ? {} : { required: setting === 'on' }), ...(flags.org === undefined ? {} : { org: flags.org }) });
    });
}

/**
 * The human gate on an organisation's sends is set on the data directory, never through the API: the keys that
 * send must not be able to lift it.
 */
export async function approval(ctx: CliContext, options: { required?: boolean; org?: string }): Promise<void> {
  const result = await withDataDirectory(ctx.home, ctx.env, ({ orgs, emailApprovals }) => {
    const orgId = pickOrg(orgs, options.org).id;
    if (options.required !== undefined) emailApprovals.setRequired(orgId, options.required);
    return { org_id: orgId, require_approval: emailApprovals.isRequired(orgId) };
  });
  ctx.out.result(result, () => ctx.out.line(`sends of ${result.org_id} ${result.require_approval ? `wait for approval ('${ctx.cliName} email approve <id>')` : 'go out without approval'}`));
}
