import type { Command } from 'commander';
import { examples } from '../../help.js';
import { registerWebhooksDeliveries } from './deliveries.js';
import { registerWebhooksEndpoint } from './endpoint.js';
import { registerWebhooksRedeliver } from './redeliver.js';
import { registerWebhooksSecret } from './secret.js';
import { registerWebhooksTest } from './test.js';

export function registerWebhooks(program: Command): void {
  const webhooks = program.command('webhooks').description('webhooks: signing secret, the organisation\'s endpoint, deliveries, redelivery, samples (local admin on the data directory)').addHelpText('after', examples('errand webhooks secret', 'errand webhooks deliveries --failed', 'errand webhooks test run.completed --url https://example.com/hooks'));
  registerWebhooksSecret(webhooks);
  registerWebhooksEndpoint(webhooks);
  registerWebhooksDeliveries(webhooks);
  registerWebhooksRedeliver(webhooks);
  registerWebhooksTest(webhooks);
}
