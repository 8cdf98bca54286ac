import { OrgModes } from '../orgs/org-modes.js';
import { isoTime, type Clock } from '../clock.js';
import { InvalidRequestError } from '../errors.js';
import type { WebhookQueue } from '../event-log/event-announcer.js';
import { eventSpec, WEBHOOK_SIGNERS, WEBHOOK_TARGETS, type WebhookEventType } from '../event-log/event-catalogue.js';
import { webhookAddress } from '../event-log/webhook-address.js';
import { webhookBody } from '../event-log/webhook-body.js';
import { webhookSample } from '../event-log/webhook-samples.js';
import type { IdFactory } from '../ids.js';
import type { TargetGuard } from '../network/target-guard.js';
import type { Store } from '../store/store.js';
import type { DeliveriesService, WebhookDeliveryDetail } from './deliveries-service.js';
import type { SignerSecrets } from './webhook-signers.js';
import { secretsOf } from './webhook-signers.js';

export interface TestWebhooksOptions {
  store: Store;
  clock: Clock;
  ids: IdFactory;
  /** Where the sample is written, as any webhook is. */
  outbox: WebhookQueue;
  deliveries: DeliveriesService;
  secrets: SignerSecrets;
}

/**
 * `errand webhooks test`: a sample of a catalogued webhook event, signed and sent like any webhook. It is written to
 * the outbox, so the daemon's worker delivers it, retries it and lists it with the others; its body says
 * `"test": true`, which real traffic never does.
 */
export class TestWebhooks {
  constructor(private readonly o: TestWebhooksOptions) {}

  /**
   * Queues a sample of `type` to `url`, or to the address the organisation's real events of that type go to. The
   * address passes the target guard first, as every webhook address does; the delivery worker checks it again.
   */
  async send(orgId: string, type: WebhookEventType, url: string | null, guard: TargetGuard): Promise<WebhookDeliveryDetail> {
    const webhook = eventSpec(type).webhook;
    if (webhook === null) throw new Error(`${type} is not sent as a webhook`);
    const target = url ?? webhookAddress(this.o.store, webhook.to, { orgId })?.url ?? null;
    if (target === null) {
      throw new InvalidRequestError('no_webhook_target', `${type} goes to ${WEBHOOK_TARGETS[webhook.to].replaceAll('`', '')}, and the organisation has none: name one with --url`, { param: 'url' });
    }
    await guard.check(target, 'url');
    if (secretsOf(webhook.signer, orgId, this.o.secrets).length === 0) {
      throw new InvalidRequestError('no_signing_secret', `${type} is signed with ${WEBHOOK_SIGNERS[webhook.signer].replaceAll('`', '')}, which the organisation does not have yet: POST /v1/emails/identity allocates it`);
    }
    const data = JSON.stringify(webhookSample(type, isoTime(this.o.clock.now())));
    const id = this.o.store.transaction((uow) =>
      this.o.outbox.enqueue(uow, { orgId, runId: null, event: type, url: target, webhookId: this.o.ids('evt'), payload: webhookBody(type, data, new OrgModes(this.o.store.orgs).livemode(orgId), true), signer: webhook.signer }),
    );
    return this.o.deliveries.get(orgId, id);
  }
}
