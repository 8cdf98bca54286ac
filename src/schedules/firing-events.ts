import type { EventAnnouncer } from '../event-log/event-announcer.js';
import type { Store } from '../store/store.js';
import type { Firing } from './scheduler.js';

/** Announces each firing that started a run as `schedule.fired` on the organisation's stream (skipped ones: SkippedFirings). */
export function firingEvents(store: Store, announcer: EventAnnouncer): (firing: Firing) => void {
  return ({ orgId, jobId, slot, runId }) => {
    store.transaction((uow) => announcer.announce(uow, { type: 'schedule.fired', orgId, data: { job_id: jobId, slot, run_id: runId } }));
  };
}
