import type { EventLog } from '../event-log/event-log.js';
import type { RunRow } from '../store/runs-table.js';
import { RUN_WEBHOOK_EVENTS } from '../webhooks/outbox.js';
import type { TransitionHook } from './run-change.js';

/**
 * A transition hook that logs a run's final envelope when it ends (`run.completed`, `run.failed`,
 * `run.cancelled`, named like the webhooks), in the unit of work of the terminal transition: a stream that saw
 * the run end also has its envelope, and the envelope is the one the webhook carries.
 */
export function runEndEvents(eventLog: EventLog, envelope: (run: RunRow) => unknown): TransitionHook {
  return (change, uow) => {
    const type = RUN_WEBHOOK_EVENTS[change.to];
    if (type === undefined) return;
    eventLog.append(uow, { orgId: change.run.org_id, runId: change.run.id, type, data: envelope(change.run) });
  };
}
