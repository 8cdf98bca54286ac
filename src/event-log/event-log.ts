import { isoTime, type Clock } from '../clock.js';
import type { EventBus } from '../events.js';
import type { EventRow, EventsStore } from '../store/events-store.js';
import type { UnitOfWork } from '../store/unit-of-work.js';

/** An event as it is appended: who it belongs to, what happened, and its data (any JSON value). */
export interface NewEvent {
  orgId: string;
  /** Set for events about one run: they also appear in that run's stream. */
  runId?: string | null;
  /** A type of the event catalogue (`EventAnnouncer` appends only those); readers also meet others, from other versions. */
  type: string;
  data: unknown;
  /** The webhook the event carries (the catalogue's events with a webhook), minted by `EventAnnouncer`. */
  webhook?: EventWebhook | null;
}

/** An event's webhook: its `webhook-id` and the body a receiver gets, the same whether or not it has an address. */
export interface EventWebhook {
  id: string;
  payload: string;
}

/** An event as streams and readers see it. */
export interface LoggedEvent {
  id: number;
  /** Whose event it is: what its `livemode` is read from (issue 25). */
  org_id: string;
  type: string;
  run_id: string | null;
  data: unknown;
  created_at: string;
}

export interface EventLogOptions {
  store: EventsStore;
  clock: Clock;
  events: EventBus;
}

/**
 * The durable event log: each event is written in the unit of work of what caused it, so an event exists exactly
 * when its cause committed, and gets an increasing id that a reader can resume after. Once the unit has committed,
 * `wake.event_logged` tells live readers (streams) to look.
 */
export class EventLog {
  constructor(private readonly o: EventLogOptions) {}

  append(uow: UnitOfWork, event: NewEvent): number {
    const runId = event.runId ?? null;
    const id = this.o.store.append(uow, {
      org_id: event.orgId,
      run_id: runId,
      type: event.type,
      data: JSON.stringify(event.data),
      created_at: isoTime(this.o.clock.now()),
      webhook_id: event.webhook?.id ?? null,
      webhook_payload: event.webhook?.payload ?? null,
    });
    uow.afterCommit(() => this.o.events.emit('wake.event_logged', { id, orgId: event.orgId, runId }));
    return id;
  }

  /** An organisation's events after `after` (an event id; 0 for the beginning), oldest first. */
  orgEvents(orgId: string, after: number, limit: number): LoggedEvent[] {
    return this.o.store.orgAfter(orgId, after, limit).map(toLogged);
  }

  /** The webhook of an organisation's event, with its type; null when it carries none. */
  webhook(orgId: string, id: number): (EventWebhook & { type: string }) | null {
    const row = this.o.store.webhook(orgId, id);
    return row === undefined ? null : { type: row.type, id: row.webhook_id, payload: row.webhook_payload };
  }

  /** The newest event's id (0 when the log is empty): where a stream that wants only new events starts. */
  lastId(): number {
    return this.o.store.lastId();
  }

  /** A job's skipped firings (`schedule.skipped`), newest first, before the event `before` (null: the newest). */
  skippedFirings(orgId: string, jobId: string, before: number | null, limit: number): LoggedEvent[] {
    return this.o.store.skippedFirings(orgId, jobId, before, limit).map(toLogged);
  }

  /** A run's events after `after`, oldest first. */
  runEvents(runId: string, after: number, limit: number): LoggedEvent[] {
    return this.o.store.runAfter(runId, after, limit).map(toLogged);
  }
}

function toLogged(row: EventRow): LoggedEvent {
  return { id: row.id, org_id: row.org_id, type: row.type, run_id: row.run_id, data: JSON.parse(row.data), created_at: row.created_at };
}
