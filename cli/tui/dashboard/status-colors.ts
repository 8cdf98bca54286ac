import type { RunStatus } from '../../../src/vocabulary/run-status.js';

/** The colour each run status is shown in (none without a terminal that has colours, or with NO_COLOR). */
export function statusColor(status: RunStatus): string {
  switch (status) {
    case 'queued':
      return 'yellow';
    case 'running':
      return 'cyan';
    case 'succeeded':
      return 'green';
    case 'failed':
      return 'red';
    case 'cancelled':
      return 'gray';
    default: {
      const unknown: never = status;
      throw new Error(`unknown run status ${String(unknown)}`);
    }
  }
}
