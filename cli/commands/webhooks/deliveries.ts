import { Option, type Command } from 'commander';
import type { WebhookDelivery } from '../../../src/webhooks/deliveries-service.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { integerFlag } from '../../flag-parsers.js';
import { withWebhookServices } from './webhook-services.js';
import { ORG_OPTION_HELP } from '../../pick-org.js';

export interface ListDeliveriesOptions {
  org?: string;
  run?: string;
  failed: boolean;
  limit: number;
  cursor?: string;
}

export function registerWebhooksDeliveries(webhooks: Command): void {
  webhooks
    .command('deliveries')
    .description('list webhook deliveries and how their attempts went, newest first')
    .option('--run <id>', 'only the deliveries of this run')
    .option('--failed', 'only deliveries that gave up')
    .addOption(new Option('--limit <n>', 'how many').argParser(integerFlag(1, 200)).default(20))
    .option('--cursor <id>', 'start after this delivery (the next_cursor of a previous page)')
    .option('--org <id or name>', ORG_OPTION_HELP)
    .addHelpText('after', examples('errand webhooks deliveries', 'errand webhooks deliveries --failed --json'))
    .action(async (flags: { run?: string; failed?: boolean; limit: number; cursor?: string; org?: string }, cmd: Command) => {
      await listDeliveries(contextOf(cmd), { ...flags, failed: flags.failed === true });
    });
}

export async function listDeliveries(ctx: CliContext, options: ListDeliveriesOptions): Promise<void> {
  const page = await withWebhookServices(ctx.home, ctx.env, options.org, ({ orgId, deliveries }) =>
    deliveries.list(orgId, { runId: options.run ?? null, failedOnly: options.failed, limit: options.limit, cursor: options.cursor ?? null }),
  );
  const nextCursor = page.hasMore ? (page.items.at(-1)?.id ?? null) : null;
  ctx.out.result({ object: 'list', data: page.items, has_more: page.hasMore, next_cursor: nextCursor }, () => {
    ctx.out.table<WebhookDelivery>(
      page.items,
      [
        { header: 'ID', value: (d) => d.id },
        { header: 'EVENT', value: (d) => d.event },
        { header: 'RUN', value: (d) => d.run_id },
        { header: 'STATUS', value: (d) => d.status },
        { header: 'ATTEMPTS', value: (d) => d.attempts },
        { header: 'LAST', value: (d) => d.last_status_code ?? d.last_error, max: 30 },
        { header: 'NEXT ATTEMPT', value: (d) => d.next_attempt_at },
        { header: 'URL', value: (d) => d.url, max: 50 },
      ],
      'no webhook deliveries',
    );
    if (nextCursor) ctx.out.note(`more: --cursor ${nextCursor}`);
  });
}
