import type { RunStatus, TerminalStatus } from '../vocabulary/run-status.js';

/**
 * The run lifecycle of API-DECISIONS.md as a table: the only transitions that exist. Terminal states have none.
 */
export const RUN_TRANSITIONS: Readonly<Record<Exclude<RunStatus, TerminalStatus>, readonly RunStatus[]> & Record<TerminalStatus, readonly []>> = {
  queued: ['running', 'cancelled'],
  running: ['succeeded', 'failed', 'cancelled', 'queued'],
  succeeded: [],
  failed: [],
  cancelled: [],
};

export function canTransition(from: RunStatus, to: RunStatus): boolean {
  return (RUN_TRANSITIONS[from] as readonly RunStatus[]).includes(to);
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
