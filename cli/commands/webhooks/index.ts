import type { Command } from 'commander';
import { examples } from '../../help.js';
import { registerWebhooksDeliveries } from './deliveries.js';
import { registerWebhooksRedeliver } from './redeliver.js';
import { registerWebhooksSecret } from './secret.js';

export function registerWebhooks(program: Command): void {
  const webhooks = program.command('webhooks').description('run webhooks: signing secret, deliveries, redelivery (local admin on the data directory)').addHelpText('after', examples('errand webhooks secret', 'errand webhooks deliveries --failed'));
  registerWebhooksSecret(webhooks);
  registerWebhooksDeliveries(webhooks);
  registerWebhooksRedeliver(webhooks);
}
