import type { EventBus } from '../../events.js';
import type { RunEnvelope } from '../../runs/envelope.js';
import type { RunsService } from '../../runs/runs-service.js';
import { isTerminal } from '../../vocabulary/run-status.js';

export interface RunWaiterOptions {
  runs: RunsService;
  events: EventBus;
  /**
   * How often the run's progress is looked at between its events: steps are recorded on the run row as the agent
   * works, and not every step is an event.
   */
  lookEveryMs: number;
}

export interface WaitOptions {
  /** The longest to wait, in milliseconds. */
  boundMs: number;
  signal: AbortSignal;
  /** Called when the run's status, step count or last action changed. */
  onProgress(envelope: RunEnvelope): void;
}

/**
 * Waits for a run to end, for the tools that start runs and answer with their outcome: woken by the run's status
 * changes and logged events (announced after their commit), and by a look at the run row every `lookEveryMs`.
 * Answers the run's envelope, terminal or not: a run that outlasts the bound (or the caller's signal) is answered
 * as it stands, and the caller polls it later.
 */
export class RunWaiter {
  constructor(private readonly o: RunWaiterOptions) {}

  wait(orgId: string, runId: string, options: WaitOptions): Promise<RunEnvelope> {
    return new Promise((resolve) => {
      let last = '';
      const look = (): RunEnvelope => {
        const envelope = this.o.runs.get(orgId, runId);
        const seen = `${envelope.status}:${envelope.progress.steps}:${envelope.progress.last_action ?? ''}`;
        if (seen !== last) {
          last = seen;
          if (!isTerminal(envelope.status)) options.onProgress(envelope);
        }
        return envelope;
      };
      const finish = (envelope: RunEnvelope): void => {
        offTransition();
        offLogged();
        clearInterval(ticker);
        clearTimeout(deadline);
        options.signal.removeEventListener('abort', onAbort);
        resolve(envelope);
      };
      const wake = (): void => {
        const envelope = look();
        if (isTerminal(envelope.status)) finish(envelope);
      };
      const onAbort = (): void => finish(this.o.runs.get(orgId, runId));
      const offTransition = this.o.events.on('wake.run_transitioned', (e) => {
        if (e.runId === runId) wake();
      });
      const offLogged = this.o.events.on('wake.event_logged', (e) => {
        if (e.runId === runId) wake();
      });
      const ticker = setInterval(wake, this.o.lookEveryMs);
      const deadline = setTimeout(onAbort, options.boundMs);
      options.signal.addEventListener('abort', onAbort);
      // The run may have ended before anything above was listening.
      if (options.signal.aborted) onAbort();
      else wake();
    });
  }
}
