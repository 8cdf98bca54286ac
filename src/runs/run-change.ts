import type { RunRow } from '../store/runs-table.js';
import type { UnitOfWork } from '../store/unit-of-work.js';
import type { RunStatus } from '../vocabulary/run-status.js';

/** A run's status change, its creation (from null) included, as the row stands after it. */
export interface RunChange {
  run: RunRow;
  from: RunStatus | null;
  to: RunStatus;
}

/**
 * Runs inside the unit of work of a status change, creation included (the webhook outbox writes there, so a crash
 * can't split them).
 */
export type TransitionHook = (change: RunChange, uow: UnitOfWork) => void;
