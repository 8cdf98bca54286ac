import type { EventLog } from '../event-log/event-log.js';
import { EVENT_TYPES } from '../event-log/event-types.js';
import type { Store } from '../store/store.js';
import type { Firing } from './scheduler.js';

/** Logs each firing as `schedule.fired` on the organisation's stream: the run it started, or why it was skipped. */
export function firingEvents(store: Store, eventLog: EventLog): (firing: Firing) => void {
  return ({ orgId, jobId, slot, outcome }) => {
    const data =
      outcome.kind === 'started'
        ? { job_id: jobId, slot, outcome: 'started', run_id: outcome.runId, code: null, message: null }
        : { job_id: jobId, slot, outcome: 'skipped', run_id: null, code: outcome.code, message: outcome.message };
    store.transaction((uow) => eventLog.append(uow, { orgId, type: EVENT_TYPES.scheduleFired, data }));
  };
}
