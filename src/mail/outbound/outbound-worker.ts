import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { isoTime, type Clock } from '../../clock.js';
import type { EventBus } from '../../events.js';
import { DueWorkLoop } from '../../runtime/due-work-loop.js';
import type { EmailRow, QueueRow, RecipientStatus } from '../../store/emails-store.js';
import type { Store } from '../../store/store.js';
import type { UnitOfWork } from '../../store/unit-of-work.js';
import type { MailObserver, OutboundRecipientResult } from '../mail-observer.js';
import { emailLifecycle, recipientLifecycle } from './email-lifecycle.js';
import type { MailTransport, RecipientOutcome } from './mail-transport.js';
import { plural } from '../../text/plural.js';

/** Recipients an attempt is made for: never tried, or deferred by the relay before. */
const SENDABLE: ReadonlySet<RecipientStatus> = new Set(['queued', 'deferred']);

export interface OutboundWorkerOptions {
  store: Store;
  clock: Clock;
  logger: Logger;
  events: EventBus;
  transport: MailTransport;
  /** `mail.retry_schedule_s`: the delay before each retry of deferred recipients. */
  retryScheduleS: readonly number[];
  /** How long a worker holds a message while it talks to the relay; a crashed worker's message is free after it. */
  leaseMs: number;
  /** Called in the unit of work of an attempt, for each recipient the relay refused for good (a hard bounce). */
  onBounced: (uow: UnitOfWork, email: EmailRow, address: string, detail: string | null) => void;
  /** Told each recipient's recorded result, once its attempt is committed. */
  observer: MailObserver;
  concurrency?: number;
  /** Longest sleep between looks at the queue, for work another process made due (an approval by the CLI). */
  pollIntervalMs?: number;
}

/**
 * Delivers what the outbound queue holds, in a `DueWorkLoop` woken by `wake.email_queued`, as the webhook delivery
 * worker delivers the outbox.
 *
 * A message leaves the queue only in the transaction that records the relay's answer. A crash before that leaves
 * it queued, and the next worker sends it once the lease has run out: nothing accepted with a 202 is lost. The one
 * window in which a message can go out twice is a crash after the relay accepted the data and before that
 * transaction committed, which no SMTP client can close (RFC 1047).
 */
export class OutboundWorker {
  private readonly owner = `mow_${process.pid}_${randomBytes(6).toString('hex')}`;
  private readonly loop: DueWorkLoop<QueueRow>;
  private unsubscribe: (() => void) | null = null;
  private closed = false;

  constructor(private readonly o: OutboundWorkerOptions) {
    this.loop = new DueWorkLoop<QueueRow>(
      {
        claim: (now, until) => o.store.emails.claimDue(this.owner, now, until),
        nextDueAt: () => o.store.emails.nextDueAt(),
        attempt: (queued) => this.attempt(queued),
        logFields: (queued) => ({ email_id: queued.email_id }),
      },
      { clock: o.clock, logger: o.logger, concurrency: o.concurrency ?? 4, pollIntervalMs: o.pollIntervalMs ?? 2_000, leaseMs: o.leaseMs, work: 'outbound mail' },
    );
  }

  start(): void {
    if (this.unsubscribe !== null || this.closed) return;
    this.unsubscribe = this.o.events.on('wake.email_queued', () => this.loop.wake());
    this.loop.wake();
  }

  /** Messages on the outbound queue: due, being sent, or waiting for a retry. */
  queueDepth(): number {
    return this.o.store.emails.queueDepth();
  }

  /** Stops claiming and resolves once every attempt in flight has been recorded. Safe to call repeatedly. */
  close(): Promise<void> {
    this.closed = true;
    this.unsubscribe?.();
    return this.loop.close();
  }

  private async attempt(queued: QueueRow): Promise<void> {
    const { store } = this.o;
    const email = store.emails.getWithMime(queued.email_id);
    const pending = email === undefined ? [] : store.emails.recipients(email.id).filter((r) => SENDABLE.has(r.status));
    let outcomes: RecipientOutcome[] = [];
    if (email !== undefined && pending.length > 0) {
      outcomes = await this.o.transport.send(email.id, { from: email.envelope_from, to: pending.map((r) => r.address) }, email.mime);
    }
    const now = this.o.clock.now();
    const deferred = outcomes.filter((o) => o.outcome === 'deferred');
    const delayS = deferred.length === 0 ? null : (this.o.retryScheduleS[queued.attempts] ?? null);
    const givenUp = deferred.length > 0 && delayS === null;
    const was = new Map(pending.map((r) => [r.address, r.status]));
    const recipients = outcomes.map((o) => {
      const status = statusOf(o, givenUp);
      return {
        address: o.address,
        status,
        move: recipientLifecycle.move(was.get(o.address)!, status),
        detail: givenUp && o.outcome === 'deferred' ? `gave up after ${plural(queued.attempts + 1, 'attempt')}; last answer: ${o.detail ?? 'none'}` : o.detail,
      };
    });
    const lastError = deferred[0]?.detail ?? null;
    const recorded = store.transaction((uow) => {
      const held = store.emails.recordAttempt(uow, this.owner, queued.email_id, {
        recipients,
        nextAttemptAt: delayS === null ? null : now + delayS * 1000,
        lastError,
        updatedAt: isoTime(now),
      });
      if (!held || email === undefined) return false;
      // A scheduled message is sent once its time has come.
      if (email.status === 'scheduled') store.emails.setStatus(uow, email.id, emailLifecycle.move('scheduled', 'sent'), isoTime(now));
      for (const o of outcomes) if (o.outcome === 'bounced') this.o.onBounced(uow, email, o.address, o.detail);
      return true;
    });
    if (recorded) for (const r of recipients) this.o.observer.outbound(r.status);
    const count = (outcome: RecipientOutcome['outcome']) => outcomes.filter((o) => o.outcome === outcome).length;
    const log = { email_id: queued.email_id, attempt: queued.attempts + 1, delivered: count('delivered'), deferred: deferred.length, bounced: count('bounced'), failed: count('failed') };
    if (deferred.length > 0 && !givenUp) this.o.logger.info({ ...log, error: lastError, retry_in_s: delayS }, 'mail deferred; will retry');
    else if (givenUp) this.o.logger.warn({ ...log, error: lastError }, 'mail given up');
    else this.o.logger.debug(log, 'mail sent');
  }
}

function statusOf(o: RecipientOutcome, givenUp: boolean): OutboundRecipientResult & RecipientStatus {
  switch (o.outcome) {
    case 'delivered':
      return 'delivered';
    case 'bounced':
      return 'bounced';
    case 'failed':
      return 'failed';
    case 'deferred':
      return givenUp ? 'failed' : 'deferred';
    default: {
      const never: never = o.outcome;
      throw new Error(`unknown outcome ${String(never)}`);
    }
  }
}
