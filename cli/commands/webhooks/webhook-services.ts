import { systemClock } from '../../../src/clock.js';
import { EventBus } from '../../../src/events.js';
import { loadMasterKey } from '../../../src/secrets/master-key.js';
import { SecretBox } from '../../../src/secrets/secret-box.js';
import { DeliveriesService } from '../../../src/webhooks/deliveries-service.js';
import { SigningSecrets } from '../../../src/webhooks/signing-secrets.js';
import { pickOrg, withAdminServices } from '../../admin-services.js';

export interface WebhookServices {
  orgId: string;
  secrets: SigningSecrets;
  deliveries: DeliveriesService;
}

/**
 * The webhook services on the data directory, for one organisation. A redelivery marked here is picked up by the
 * running daemon's delivery worker on its next look at the outbox.
 */
export function withWebhookServices<T>(home: string, env: NodeJS.ProcessEnv, org: string | undefined, fn: (services: WebhookServices) => T | Promise<T>): Promise<T> {
  return withAdminServices(home, ({ store, orgs }) => {
    const orgId = pickOrg(orgs, org).id;
    const webhooks = store.webhooks;
    const box = new SecretBox(loadMasterKey({ home, env }));
    return fn({
      orgId,
      secrets: new SigningSecrets({ store, box, clock: systemClock }),
      deliveries: new DeliveriesService({ store: webhooks, clock: systemClock, events: new EventBus() }),
    });
  });
}
