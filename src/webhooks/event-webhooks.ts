import { eventSpec, isEventType } from '../event-log/event-catalogue.js';
import type { EventLog } from '../event-log/event-log.js';
import type { WebhookSigner } from '../vocabulary/webhook-signers.js';
import { secretsOf, type SignerSecrets } from './webhook-signers.js';

/** An event's webhook, ready to sign: what `errand listen` forwards. */
export interface ForwardableWebhook {
  /** The `webhook-id`, the delivery's `event_id` when the event had an address. */
  id: string;
  /** The body, byte for byte as the delivery sends it. */
  payload: string;
  signer: WebhookSigner;
  /** Every secret that signs it now, newest first (two while a rotation lasts); none when nothing does yet. */
  secrets: readonly string[];
}

export interface EventWebhooksOptions {
  log: EventLog;
  secrets: SignerSecrets;
}

/**
 * The webhooks the events of an organisation's log carry, with the secrets production signs them with: what
 * `errand listen` forwards, on the daemon's machine, so that a receiver built against it works in production.
 */
export class EventWebhooks {
  constructor(private readonly o: EventWebhooksOptions) {}

  /** The webhook of the organisation's event `eventId`; null when the event has none (by type, or by its address). */
  of(orgId: string, eventId: number): ForwardableWebhook | null {
    const webhook = this.o.log.webhook(orgId, eventId);
    const signer = webhook !== null && isEventType(webhook.type) ? eventSpec(webhook.type).webhook?.signer : undefined;
    if (webhook === null || signer === undefined) return null;
    return { id: webhook.id, payload: webhook.payload, signer, secrets: this.secrets(orgId, signer) };
  }

  /** The secrets that sign the organisation's webhooks of `signer` now, newest first. */
  secrets(orgId: string, signer: WebhookSigner): readonly string[] {
    return secretsOf(signer, orgId, this.o.secrets);
  }
}
