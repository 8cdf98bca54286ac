import type { RunTimeLimit } from '../agent-tools/agent-tool.js';

/**
 * The timer of a run's `timeout_s`, which stops while the agent waits for a person (request_human): that wait has
 * its own limit, human_timeout_s, and a person taking twenty minutes must not use up a run's ten.
 */
export class RunTimer implements RunTimeLimit {
  private timer: NodeJS.Timeout | null = null;
  private leftMs: number;
  private startedAt = 0;
  private suspensions = 0;
  private stopped = false;

  constructor(
    limitMs: number,
    private readonly onExpiry: () => void,
  ) {
    this.leftMs = limitMs;
    this.run();
  }

  suspend(): () => void {
    if (this.suspensions++ === 0 && this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
      this.leftMs -= Date.now() - this.startedAt;
    }
    let resumed = false;
    return () => {
      if (resumed) return;
      resumed = true;
      if (--this.suspensions === 0) this.run();
    };
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private run(): void {
    if (this.stopped) return;
    this.startedAt = Date.now();
    this.timer = setTimeout(this.onExpiry, Math.max(0, this.leftMs));
  }
}
