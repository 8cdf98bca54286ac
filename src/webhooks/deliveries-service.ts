import { isoTime, type Clock } from '../clock.js';
import { NotFoundError } from '../errors.js';
import type { EventBus } from '../events.js';
import type { Page } from '../store/page.js';
import type { DeliveryStatus, WebhookAttemptRow, WebhookDeliveryRow, WebhooksStore } from '../store/webhooks-store.js';
import { deliveryLifecycle } from './delivery-lifecycle.js';

export interface WebhookAttempt {
  attempt: number;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  created_at: string;
}

export interface WebhookDelivery {
  id: string;
  object: 'webhook_delivery';
  /** The `webhook-id` header, the same on every attempt. */
  event_id: string;
  event: string;
  run_id: string | null;
  url: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookDeliveryDetail extends WebhookDelivery {
  payload: unknown;
  attempt_log: WebhookAttempt[];
}

export interface ListDeliveriesOptions {
  runId?: string | null;
  failedOnly?: boolean;
  limit?: number;
  cursor?: string | null;
}

export interface DeliveriesServiceOptions {
  store: WebhooksStore;
  clock: Clock;
  events: EventBus;
}

/** What people see of the outbox: deliveries, their attempts, and redelivery. */
export class DeliveriesService {
  constructor(private readonly o: DeliveriesServiceOptions) {}

  list(orgId: string, options: ListDeliveriesOptions = {}): Page<WebhookDelivery> {
    const page = this.o.store.listDeliveries(orgId, {
      runId: options.runId ?? null,
      failedOnly: options.failedOnly ?? false,
      limit: options.limit ?? 20,
      cursor: options.cursor ?? null,
    });
    return { items: page.items.map(toDelivery), hasMore: page.hasMore };
  }

  get(orgId: string, id: string): WebhookDeliveryDetail {
    const row = this.o.store.getDelivery(orgId, id);
    if (!row) throw new NotFoundError('webhook delivery', id);
    return { ...toDelivery(row), payload: JSON.parse(row.payload), attempt_log: this.o.store.attempts(id).map(toAttempt) };
  }

  /**
   * Sends the event again now, with the same `webhook-id` so receivers can deduplicate. A finished delivery gets
   * one more attempt; a pending one skips the rest of its back-off wait.
   */
  redeliver(orgId: string, id: string): WebhookDelivery {
    const now = this.o.clock.now();
    for (;;) {
      const row = this.o.store.getDelivery(orgId, id);
      if (!row) throw new NotFoundError('webhook delivery', id);
      const due =
        row.status === 'pending'
          ? this.o.store.hurry(orgId, id, now, isoTime(now))
          : this.o.store.redeliver(orgId, id, deliveryLifecycle.move(row.status, 'pending'), now, isoTime(now));
      if (due) break;
      // An attempt ended it, or another redelivery started it, between our read and our write; look again.
    }
    this.o.events.emit('wake.webhook_enqueued', { deliveryId: id });
    return toDelivery(this.o.store.getDelivery(orgId, id)!);
  }
}

function toDelivery(row: WebhookDeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    object: 'webhook_delivery',
    event_id: row.event_id,
    event: row.event_type,
    run_id: row.run_id,
    url: row.url,
    status: row.status,
    attempts: row.attempts,
    next_attempt_at: row.status === 'pending' && row.next_attempt_at !== null ? isoTime(row.next_attempt_at) : null,
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function toAttempt(row: WebhookAttemptRow): WebhookAttempt {
  return { attempt: row.attempt, status_code: row.status_code, latency_ms: row.latency_ms, error: row.error, created_at: row.created_at };
}
