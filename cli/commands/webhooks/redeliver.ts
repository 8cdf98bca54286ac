import type { Command } from 'commander';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { withWebhookServices } from './webhook-services.js';
import { ORG_OPTION_HELP } from '../../pick-org.js';

export function registerWebhooksRedeliver(webhooks: Command): void {
  webhooks
    .command('redeliver')
    .description('send a delivery again now, with the same webhook-id (receivers can deduplicate)')
    .argument('<id>', 'delivery id (whd_...)')
    .option('--org <id or name>', ORG_OPTION_HELP)
    .addHelpText('after', examples('errand webhooks redeliver whd_01...'))
    .action(async (id: string, flags: { org?: string }, cmd: Command) => {
      await redeliver(contextOf(cmd), { id, ...(flags.org === undefined ? {} : { org: flags.org }) });
    });
}

export async function redeliver(ctx: CliContext, options: { id: string; org?: string }): Promise<void> {
  const delivery = await withWebhookServices(ctx.home, ctx.env, options.org, ({ orgId, deliveries }) => deliveries.redeliver(orgId, options.id));
  ctx.out.result(delivery, () => ctx.out.line(`queued ${delivery.id} (${delivery.event} to ${delivery.url}) for another attempt; the daemon sends it shortly`));
}
