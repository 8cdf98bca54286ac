/** A run's statuses, as the spec lists them. */
export const RUN_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

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

export const TERMINAL_STATUSES: readonly RunStatus[] = RUN_STATUSES.filter((s) => RUN_TRANSITIONS[s].length === 0);

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
