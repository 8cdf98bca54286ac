import type { TransitionHook } from '../runs/run-change.js';
import { isTerminal } from '../vocabulary/run-status.js';
import type { RunTracing } from './run-tracing.js';

/** The run's span is emitted once its ending move has committed (its start is the run's creation: run-tracing.ts). */
export function runSpanHook(tracing: RunTracing): TransitionHook {
  return (change, uow) => {
    if (isTerminal(change.to)) uow.afterCommit(() => tracing.runEnded(change.run));
  };
}
