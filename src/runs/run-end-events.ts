import type { EventAnnouncer } from '../event-log/event-announcer.js';
import { runEndEventOf } from '../event-log/event-catalogue.js';
import type { RunRow } from '../store/runs-table.js';
import { isTerminal } from '../vocabulary/run-status.js';
import type { RunEnvelope } from './envelope.js';
import type { TransitionHook } from './run-change.js';

/**
 * A transition hook that announces a run's end (`run.completed`, `run.failed`, `run.cancelled`) with its final
 * envelope, in the unit of work of the terminal transition: a stream that saw the run end also has its envelope,
 * and the webhook to the run's callback_url carries the same one.
 */
export function runEndEvents(announcer: EventAnnouncer, envelope: (run: RunRow) => RunEnvelope): TransitionHook {
  return (change, uow) => {
    if (!isTerminal(change.to)) return;
    const { run } = change;
    announcer.announce(uow, { type: runEndEventOf(change.to), orgId: run.org_id, runId: run.id, callbackUrl: run.callback_url, data: envelope(run) });
  };
}
