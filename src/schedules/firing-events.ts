import type { EventLog } from '../event-log/event-log.js';
import { EVENT_TYPES } from '../event-log/event-types.js';
import type { Store } from '../store/store.js';
import type { Firing } from './scheduler.js';

/** Logs each firing that started a run as `schedule.fired` on the organisation's stream (skipped ones: SkippedFirings). */
export function firingEvents(store: Store, eventLog: EventLog): (firing: Firing) => void {
  return ({ orgId, jobId, slot, runId }) => {
    store.transaction((uow) => eventLog.append(uow, { orgId, type: EVENT_TYPES.scheduleFired, data: { job_id: jobId, slot, run_id: runId } }));
  };
}
