import type { Db } from './database.js';
import type { UnitOfWork } from './unit-of-work.js';

/** One entry of the event log as streams read it; `data` is JSON text. */
export interface EventRow {
  id: number;
  org_id: string;
  run_id: string | null;
  type: string;
  data: string;
  created_at: string;
}

/** The webhook an event carries (migration 021): its `webhook-id` and the body a receiver gets, byte for byte. */
export interface EventWebhookRow {
  type: string;
  webhook_id: string;
  webhook_payload: string;
}

/** An event as it is appended: with its webhook, or none. */
export type NewEventRow = Omit<EventRow, 'id'> & { webhook_id?: string | null; webhook_payload?: string | null };

/** What streams read: never the webhook's body, which may hold whole messages. */
const STREAMED = 'id, org_id, run_id, type, data, created_at';

type JobEventsParams = { org_id: string; job_id: string; before: number | null; limit: number };

export class EventsStore {
  private readonly s;

  constructor(db: Db) {
    this.s = {
      insert: db.prepare<NewEventRow>(
        `INSERT INTO events (org_id, run_id, type, data, created_at, webhook_id, webhook_payload)
         VALUES (@org_id, @run_id, @type, @data, @created_at, @webhook_id, @webhook_payload)`,
      ),
      orgAfter: db.prepare<{ org_id: string; after: number; limit: number }, EventRow>(
        `SELECT ${STREAMED} FROM events WHERE org_id = @org_id AND id > @after ORDER BY id LIMIT @limit`,
      ),
      runAfter: db.prepare<{ run_id: string; after: number; limit: number }, EventRow>(
        `SELECT ${STREAMED} FROM events WHERE run_id = @run_id AND id > @after ORDER BY id LIMIT @limit`,
      ),
      webhook: db.prepare<{ id: number; org_id: string }, EventWebhookRow>(
        'SELECT type, webhook_id, webhook_payload FROM events WHERE id = @id AND org_id = @org_id AND webhook_id IS NOT NULL',
      ),
      last: db.prepare<[], number | null>('SELECT MAX(id) FROM events').pluck(),
      // The type is written out, not bound, so that the partial index events_skipped_firings (migration 014) serves.
      skippedFirst: db.prepare<JobEventsParams, EventRow>(
        `SELECT ${STREAMED} FROM events WHERE type = 'schedule.skipped' AND org_id = @org_id AND json_extract(data, '$.job_id') = @job_id ORDER BY id DESC LIMIT @limit`,
      ),
      skippedBefore: db.prepare<JobEventsParams, EventRow>(
        `SELECT ${STREAMED} FROM events WHERE type = 'schedule.skipped' AND org_id = @org_id AND json_extract(data, '$.job_id') = @job_id AND id < @before ORDER BY id DESC LIMIT @limit`,
      ),
    };
  }

  /** Appends an event; answers its id. */
  append(_uow: UnitOfWork, event: NewEventRow): number {
    return Number(this.s.insert.run({ webhook_id: null, webhook_payload: null, ...event }).lastInsertRowid);
  }

  /** The webhook of an organisation's event, or undefined when it has none (or is not the organisation's). */
  webhook(orgId: string, id: number): EventWebhookRow | undefined {
    return this.s.webhook.get({ id, org_id: orgId });
  }

  /** An organisation's events after `after`, oldest first. */
  orgAfter(orgId: string, after: number, limit: number): EventRow[] {
    return this.s.orgAfter.all({ org_id: orgId, after, limit });
  }

  /** One run's events after `after`, oldest first. */
  runAfter(runId: string, after: number, limit: number): EventRow[] {
    return this.s.runAfter.all({ run_id: runId, after, limit });
  }

  /** A job's skipped firings (`schedule.skipped` events with its `data.job_id`), newest first, before the event `before`. */
  skippedFirings(orgId: string, jobId: string, before: number | null, limit: number): EventRow[] {
    const params = { org_id: orgId, job_id: jobId, before, limit };
    return before === null ? this.s.skippedFirst.all(params) : this.s.skippedBefore.all(params);
  }

  /** The newest event's id, or 0 when there is none. */
  lastId(): number {
    return this.s.last.get() ?? 0;
  }
}
