import { isoTime, type Clock } from '../clock.js';
import type { NewWebhook, WebhookQueue } from '../event-log/event-announcer.js';
import type { EventBus } from '../events.js';
import type { IdFactory } from '../ids.js';
import type { UnitOfWork } from '../store/unit-of-work.js';
import type { WebhooksStore } from '../store/webhooks-store.js';
import { delayBeforeAttempt } from './retry-policy.js';

export interface WebhookOutboxOptions {
  store: WebhooksStore;
  clock: Clock;
  ids: IdFactory;
  events: EventBus;
  /** `webhooks.retry_schedule_s`: its first entry delays the first attempt. */
  retryScheduleS: readonly number[];
}

/**
 * The write side of the durable outbox: `EventAnnouncer` writes each webhook in the unit of work of its event, so
 * the webhook is committed with its cause or not at all.
 */
export class WebhookOutbox implements WebhookQueue {
  constructor(private readonly o: WebhookOutboxOptions) {}

  /** Writes one webhook to the outbox and returns the delivery id. */
  enqueue(uow: UnitOfWork, webhook: NewWebhook): string {
    const now = this.o.clock.now();
    const id = this.o.ids('whd');
    this.o.store.insertDelivery({
      id,
      event_id: webhook.webhookId,
      org_id: webhook.orgId,
      run_id: webhook.runId,
      event_type: webhook.event,
      url: webhook.url,
      payload: webhook.payload,
      signer: webhook.signer,
      next_attempt_at: now + (delayBeforeAttempt(1, this.o.retryScheduleS) ?? 0),
      created_at: isoTime(now),
    });
    uow.afterCommit(() => this.o.events.emit('wake.webhook_enqueued', { deliveryId: id }));
    return id;
  }
}
