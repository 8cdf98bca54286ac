import { Lifecycle } from '../lifecycle.js';
import type { EvalStatus } from '../vocabulary/evals.js';

/**
 * An eval's status. It is `queued` until its first case's run is made, `running` while cases wait or run, and
 * `completed` once every case has an outcome (straight from `queued` when no run could be made for any);
 * `cancelled` by request, with its cases that had no run `skipped`. Both ends are final.
 */
export const evalLifecycle = new Lifecycle<EvalStatus>('eval', {
  queued: ['running', 'completed', 'cancelled'],
  running: ['completed', 'cancelled'],
  completed: [],
  cancelled: [],
});

export function isEnded(status: EvalStatus): boolean {
  return evalLifecycle.table[status].length === 0;
}
