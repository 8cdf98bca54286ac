import { Argument, type Command } from 'commander';
import { loadConfig } from '../../../src/config/load.js';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../../src/event-log/event-catalogue.js';
import { readNetwork } from '../../../src/network/network.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { withWebhookServices } from './webhook-services.js';
import { ORG_OPTION_HELP } from '../../pick-org.js';

export interface TestWebhookOptions {
  event: WebhookEventType;
  url: string | null;
  org?: string;
}

export function registerWebhooksTest(webhooks: Command): void {
  webhooks
    .command('test')
    .description('send a signed sample of a webhook event through the outbox, to where such events go or to --url')
    .addArgument(new Argument('<event>', 'the event type').choices(WEBHOOK_EVENT_TYPES))
    .option('--url <url>', "where to send it (default: where the organisation's events of that type go: its endpoint, or the identity's callback_url)")
    .option('--org <id or name>', ORG_OPTION_HELP)
    .addHelpText(
      'after',
      `
The sample's data is valid against the event's schema (GET /v1/openapi.json, webhooks) and names nothing real
(ids of zeros). It is signed with the secret production signs that event with, and delivered, retried and listed
('errand webhooks deliveries') like any webhook; its body has "test": true beside "event" and "data", which real
events never have. Run webhooks go to each run's callback_url, so they need --url. The daemon sends it within a
few seconds.
${examples('errand webhooks test run.completed --url https://example.com/hooks/errand', 'errand webhooks test email.received', 'errand webhooks test connection.expired --json')}`,
    )
    .action(async (event: WebhookEventType, flags: { url?: string; org?: string }, cmd: Command) => {
      await testWebhook(contextOf(cmd), { event, url: flags.url ?? null, ...(flags.org === undefined ? {} : { org: flags.org }) });
    });
}

export async function testWebhook(ctx: CliContext, options: TestWebhookOptions): Promise<void> {
  // The target guard of the data directory's configuration, as `webhooks endpoint set` uses; the daemon checks again.
  const network = await readNetwork(loadConfig({ home: ctx.home, env: ctx.env }));
  try {
    const delivery = await withWebhookServices(ctx.home, ctx.env, options.org, ({ orgId, tests }) => tests.send(orgId, options.event, options.url, network.guard));
    ctx.out.result(delivery, () => ctx.out.line(`queued ${delivery.id}: a sample ${delivery.event} to ${delivery.url} (webhook-id ${delivery.event_id}); 'errand webhooks deliveries' shows how it went`));
  } finally {
    network.close();
  }
}
