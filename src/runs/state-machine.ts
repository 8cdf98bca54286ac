import type { RunStatus } from '../store/runs-store.js';

/**
 * The run lifecycle of API-DECISIONS.md as a table: the only transitions that exist. Terminal states have none.
 */
export const RUN_TRANSITIONS: Readonly<Record<RunStatus, readonly RunStatus[]>> = {
  queued: ['running', 'cancelled'],
  running: ['succeeded', 'failed', 'cancelled', 'queued'],
  succeeded: [],
  failed: [],
  cancelled: [],
};

export const TERMINAL_STATUSES: readonly RunStatus[] = ['succeeded', 'failed', 'cancelled'];

export function isTerminal(status: RunStatus): boolean {
  return RUN_TRANSITIONS[status].length === 0;
}

export function canTransition(from: RunStatus, to: RunStatus): boolean {
  return RUN_TRANSITIONS[from].includes(to);
}

export class IllegalTransitionError extends Error {
  constructor(
    readonly from: RunStatus,
    readonly to: RunStatus,
  ) {
    super(`a run cannot go from ${from} to ${to}`);
    this.name = 'IllegalTransitionError';
  }
}
