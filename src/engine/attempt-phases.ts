import { performance } from 'node:perf_hooks';

/**
 * Where an attempt's time went, phase by phase (sandbox, recording start, the agent's or the replay's steps, evidence,
 * recording finish, file collection, removal...), logged with its end: what a slow run is read from, and what
 * bench/replay.ts reports. A phase timed more than once adds up.
 */
export class AttemptPhases {
  private readonly ms: Record<string, number> = {};

  async time<T>(phase: string, work: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.add(phase, performance.now() - started);
    }
  }

  add(phase: string, ms: number): void {
    this.ms[phase] = (this.ms[phase] ?? 0) + ms;
  }

  /** Milliseconds by phase, rounded, in the order the phases were first timed. */
  toJSON(): Record<string, number> {
    return Object.fromEntries(Object.entries(this.ms).map(([phase, ms]) => [phase, Math.round(ms)]));
  }
}
