import http from 'node:http';
import https from 'node:https';
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { isoTime, type Clock } from '../clock.js';
import type { Config } from '../config/schema.js';
import type { EventAnnouncer } from '../event-log/event-announcer.js';
import type { EventBus } from '../events.js';
import type { TargetGuard } from '../network/target-guard.js';
import { DueWorkLoop } from '../runtime/due-work-loop.js';
import type { Store } from '../store/store.js';
import type { AttemptOutcome, DeliveryStatus, WebhookDeliveryRow } from '../store/webhooks-store.js';
import { deliveryLifecycle } from './delivery-lifecycle.js';
import { sendWebhook, type SendResult } from './http-sender.js';
import { delayBeforeAttempt, parseRetryAfter } from './retry-policy.js';
import { signWebhook } from './signer.js';
import { secretsOf } from './webhook-signers.js';

export type WebhookConfig = Pick<Config, 'webhooks.timeout_s' | 'webhooks.retry_schedule_s'>;

export interface DeliveryWorkerOptions {
  store: Store;
  /** Every secret that signs an organisation's webhooks right now (`SigningSecrets#signingSecrets`). */
  signingSecrets: (orgId: string) => readonly string[];
  /** Every secret that signs an organisation's email webhooks right now (its email identity's). */
  emailSigningSecrets?: (orgId: string) => readonly string[];
  clock: Clock;
  logger: Logger;
  events: EventBus;
  /** Announces each attempt's outcome (`webhook.attempted`) on the organisation's event stream. */
  announcer: EventAnnouncer;
  config: WebhookConfig;
  /** Checks every target again as it connects: settings may have changed since an event was queued. */
  guard: TargetGuard;
  /** Attempts in flight at once. */
  concurrency?: number;
  /** Longest sleep between looks at the outbox, for work another process added (a CLI redelivery). */
  pollIntervalMs?: number;
  random?: () => number;
  /** The W3C traceparent a run's webhooks carry (its trace's run span), or null: none. */
  traceparentOf?: (runId: string) => string | null;
  /** Told of every attempt once it is recorded: the delivery's status after it and the receiver's time (metrics). */
  onAttempt?: (status: DeliveryStatus, latencyMs: number) => void;
}

/** Sends what the outbox holds, in a `DueWorkLoop` woken by `wake.webhook_enqueued`. */
export class DeliveryWorker {
  private readonly owner = `whw_${process.pid}_${randomBytes(6).toString('hex')}`;
  private readonly agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };
  private readonly loop: DueWorkLoop<WebhookDeliveryRow>;
  private readonly random: () => number;
  private unsubscribe: (() => void) | null = null;
  private closing: Promise<void> | null = null;

  constructor(private readonly o: DeliveryWorkerOptions) {
    this.random = o.random ?? Math.random;
    this.loop = new DueWorkLoop<WebhookDeliveryRow>(
      {
        claim: (now, until) => o.store.webhooks.claimDue(this.owner, now, until),
        nextDueAt: () => o.store.webhooks.nextDueAt(),
        attempt: (row) => this.attempt(row),
        logFields: (row) => ({ delivery_id: row.id }),
      },
      {
        clock: o.clock,
        logger: o.logger,
        concurrency: o.concurrency ?? 8,
        pollIntervalMs: o.pollIntervalMs ?? 5_000,
        // An attempt ends by its timeout; the margin covers signing and recording. A crashed worker's delivery
        // becomes claimable again once this runs out.
        leaseMs: o.config['webhooks.timeout_s'] * 1000 + 30_000,
        work: 'webhook deliveries',
      },
    );
  }

  start(): void {
    if (this.unsubscribe !== null || this.closing !== null) return;
    this.unsubscribe = this.o.events.on('wake.webhook_enqueued', () => this.loop.wake());
    this.loop.wake();
  }

  /** Stops claiming work and resolves once every attempt in flight has been recorded. Safe to call repeatedly. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.unsubscribe?.();
      await this.loop.close();
      this.agents.http.destroy();
      this.agents.https.destroy();
    })();
    return this.closing;
  }

  private async attempt(row: WebhookDeliveryRow): Promise<void> {
    const startedAt = this.o.clock.now();
    let result: SendResult;
    try {
      const headers: Record<string, string> = signWebhook(row.event_id, startedAt, row.payload, this.secretsFor(row));
      const traceparent = row.run_id === null ? null : (this.o.traceparentOf?.(row.run_id) ?? null);
      if (traceparent !== null) headers.traceparent = traceparent;
      result = await sendWebhook(row.url, row.payload, {
        headers,
        timeoutMs: this.o.config['webhooks.timeout_s'] * 1000,
        guard: this.o.guard,
        agents: this.agents,
      });
    } catch (err) {
      result = { statusCode: null, retryAfter: undefined, error: `could not send: ${(err as Error).message}`, refused: false, latencyMs: 0 };
    }
    const finishedAt = this.o.clock.now();
    const outcome = this.outcome(row, result, finishedAt);
    const attempt = {
      delivery_id: row.id,
      attempt: row.attempts + 1,
      status_code: result.statusCode,
      latency_ms: result.latencyMs,
      error: result.error,
      created_at: isoTime(startedAt),
    };
    this.o.store.transaction((uow) => {
      this.o.store.webhooks.recordAttempt(uow, this.owner, attempt, deliveryLifecycle.move(row.status, outcome.status), outcome);
      this.o.announcer.announce(uow, {
        type: 'webhook.attempted',
        orgId: row.org_id,
        data: {
          delivery_id: row.id,
          event_id: row.event_id,
          event: row.event_type,
          run_id: row.run_id,
          url: row.url,
          attempt: attempt.attempt,
          status_code: attempt.status_code,
          latency_ms: attempt.latency_ms,
          error: outcome.last_error,
          status: outcome.status,
          next_attempt_at: outcome.next_attempt_at === null ? null : isoTime(outcome.next_attempt_at),
        },
      });
    });
    this.o.onAttempt?.(outcome.status, result.latencyMs);
    const log = { delivery_id: row.id, event_id: row.event_id, event: row.event_type, attempt: row.attempts + 1, status_code: result.statusCode };
    if (outcome.status === 'succeeded') this.o.logger.debug(log, 'webhook delivered');
    else if (outcome.status === 'failed') this.o.logger.warn({ ...log, error: result.error }, 'webhook delivery failed for good');
    else this.o.logger.info({ ...log, error: result.error, next_attempt_at: isoTime(outcome.next_attempt_at ?? finishedAt) }, 'webhook attempt failed; will retry');
  }

  private secretsFor(row: WebhookDeliveryRow): readonly string[] {
    return secretsOf(row.signer, row.org_id, {
      org: this.o.signingSecrets,
      email: (orgId) => {
        if (this.o.emailSigningSecrets === undefined) throw new Error('no email signing secrets in this worker');
        return this.o.emailSigningSecrets(orgId);
      },
    });
  }

  private outcome(row: WebhookDeliveryRow, result: SendResult, nowMs: number): AttemptOutcome & { status: DeliveryStatus } {
    const base = { last_status_code: result.statusCode, last_error: result.error, updated_at: isoTime(nowMs) };
    if (result.error === null) return { ...base, status: 'succeeded', next_attempt_at: null };
    if (result.statusCode === 410) {
      return { ...base, status: 'failed', next_attempt_at: null, last_error: 'receiver answered 410 Gone; no more retries' };
    }
    // A refused target stays refused, and a manual redelivery is one attempt: neither continues the schedule.
    if (result.refused || row.manual === 1) return { ...base, status: 'failed', next_attempt_at: null };
    const scheduled = delayBeforeAttempt(row.attempts + 2, this.o.config['webhooks.retry_schedule_s'], this.random);
    if (scheduled === null) return { ...base, status: 'failed', next_attempt_at: null };
    const asked = parseRetryAfter(result.retryAfter, nowMs) ?? 0;
    return { ...base, status: 'pending', next_attempt_at: nowMs + Math.max(scheduled, asked) };
  }
}
