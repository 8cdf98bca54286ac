import { ErrandError } from '../errors.js';
import type { EventAnnouncer } from '../event-log/event-announcer.js';
import type { EventData } from '../event-log/event-catalogue.js';
import type { EventLog } from '../event-log/event-log.js';
import type { JobsService } from '../jobs/jobs-service.js';
import type { ListResponse } from '../pagination.js';
import type { Store } from '../store/store.js';
import type { SkippedFiringListQuery } from './skipped-firing-schemas.js';

/** A firing of a job's schedule that started no run, as `GET /v1/jobs/{id}/skipped_firings` lists it. */
export interface SkippedFiring {
  object: 'skipped_firing';
  /** The event log's id of the record; also the cursor of the list. */
  event_id: number;
  job_id: string;
  /** The time the firing was scheduled for. */
  slot: string;
  /** What refused the run, as the API would have answered it (`missing_input`, `daily_cap_reached`, ...). */
  code: string;
  message: string;
  param: string | null;
  created_at: string;
}

/**
 * Firings that started no run (#10): each is written to the event log as `schedule.skipped`, durable and visible to
 * the organisation's event stream, and listed per job from there.
 */
export class SkippedFirings {
  constructor(private readonly o: { store: Store; eventLog: EventLog; announcer: EventAnnouncer; jobs: JobsService }) {}

  record(orgId: string, jobId: string, slot: string, error: Error): void {
    const data: EventData<'schedule.skipped'> = {
      job_id: jobId,
      slot,
      code: error instanceof ErrandError ? error.code : 'internal_error',
      message: error instanceof ErrandError ? error.message : 'the run could not be created; the daemon log has the details',
      param: error instanceof ErrandError ? (error.param ?? null) : null,
    };
    this.o.store.transaction((uow) => this.o.announcer.announce(uow, { type: 'schedule.skipped', orgId, data }));
  }

  /** A job's skipped firings, newest first; `cursor` is the `event_id` of the last one of the previous page. */
  list(orgId: string, jobId: string, q: SkippedFiringListQuery): ListResponse<SkippedFiring> {
    this.o.jobs.row(orgId, jobId);
    const { limit } = q;
    const events = this.o.eventLog.skippedFirings(orgId, jobId, q.cursor ?? null, limit + 1);
    const page = events.slice(0, limit).map((e): SkippedFiring => ({ object: 'skipped_firing', event_id: e.id, ...(e.data as EventData<'schedule.skipped'>), created_at: e.created_at }));
    const hasMore = events.length > limit;
    return { object: 'list', data: page, has_more: hasMore, next_cursor: hasMore ? String(page.at(-1)!.event_id) : null };
  }
}
