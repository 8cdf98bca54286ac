/** A run's statuses, as the spec lists them; the moves between them are `runs/state-machine.ts`'s. */
export const RUN_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** The statuses a run ends in: the transition table gives them no move (its type says so). */
export const TERMINAL_STATUSES = ['succeeded', 'failed', 'cancelled'] as const satisfies readonly RunStatus[];
export type TerminalStatus = (typeof TERMINAL_STATUSES)[number];

export function isTerminal(status: RunStatus): status is TerminalStatus {
  return (TERMINAL_STATUSES as readonly RunStatus[]).includes(status);
}
