import { isoTime, type Clock } from '../clock.js';
import type { EventBus } from '../events.js';
import type { IdFactory } from '../ids.js';
import type { TransitionHook } from '../runs/run-change.js';
import type { RunStatus } from '../vocabulary/run-status.js';
import type { RunRow } from '../store/runs-table.js';
import type { UnitOfWork } from '../store/unit-of-work.js';
import type { WebhookSigner, WebhooksStore } from '../store/webhooks-store.js';
import { delayBeforeAttempt } from './retry-policy.js';

export type RunWebhookEvent = 'run.completed' | 'run.failed' | 'run.cancelled';

/** The webhook each terminal status sends; other statuses send none. */
export const RUN_WEBHOOK_EVENTS: Partial<Record<RunStatus, RunWebhookEvent>> = {
  succeeded: 'run.completed',
  failed: 'run.failed',
  cancelled: 'run.cancelled',
};

export interface EnqueueOptions {
  orgId: string;
  runId: string | null;
  event: string;
  url: string;
  data: unknown;
  /** `data` already serialized, when it must carry JSON text verbatim (an email's metadata); used instead of `data`. */
  dataJson?: string;
  /** Default `org`: the organisation's run-webhook secret. */
  signer?: WebhookSigner;
}

export interface WebhookOutboxOptions {
  store: WebhooksStore;
  clock: Clock;
  ids: IdFactory;
  events: EventBus;
  /** `webhooks.retry_schedule_s`: its first entry delays the first attempt. */
  retryScheduleS: readonly number[];
}

/** The write side of the durable outbox. */
export class WebhookOutbox {
  constructor(private readonly o: WebhookOutboxOptions) {}

  /**
   * The RunsService transition hook of run webhooks: it runs inside the unit of work that makes a run terminal, so
   * the event is committed with the state or not at all. `envelope` makes the task envelope the webhook carries.
   */
  transitionHook(envelope: (run: RunRow) => unknown): TransitionHook {
    return (change, uow) => {
      const event = RUN_WEBHOOK_EVENTS[change.to];
      if (event === undefined || change.run.callback_url === null || change.run.callback_url === '') return;
      this.enqueue(uow, { orgId: change.run.org_id, runId: change.run.id, event, url: change.run.callback_url, data: envelope(change.run) });
    };
  }

  /** Writes one event to the outbox, in the unit of work that caused the event, and returns the delivery id. */
  enqueue(uow: UnitOfWork, options: EnqueueOptions): string {
    const now = this.o.clock.now();
    const id = this.o.ids('whd');
    this.o.store.insertDelivery({
      id,
      event_id: this.o.ids('evt'),
      org_id: options.orgId,
      run_id: options.runId,
      event_type: options.event,
      url: options.url,
      payload: `{"event":${JSON.stringify(options.event)},"data":${options.dataJson ?? JSON.stringify(options.data)}}`,
      signer: options.signer ?? 'org',
      next_attempt_at: now + (delayBeforeAttempt(1, this.o.retryScheduleS) ?? 0),
      created_at: isoTime(now),
    });
    uow.afterCommit(() => this.o.events.emit('webhook.enqueued', { deliveryId: id }));
    return id;
  }
}
