import type { Logger } from 'pino';
import type { Clock } from '../clock.js';

/** What a `DueWorkLoop` works on: a durable queue in the store whose items are claimed under a lease. */
export interface DueWork<T> {
  /** Claims one due item, leased until `until`, or undefined when nothing is due. */
  claim(now: number, until: number): T | undefined;
  /** When the next item falls due, or null when nothing waits. */
  nextDueAt(): number | null;
  /** Carries out one claimed item and records its outcome; a rejection is logged. */
  attempt(item: T): Promise<void>;
  /** The item's id for a log line, e.g. `{ delivery_id }`. */
  logFields(item: T): Record<string, unknown>;
}

export interface DueWorkLoopOptions {
  clock: Clock;
  logger: Logger;
  /** Attempts in flight at once. */
  concurrency: number;
  /** Longest sleep between looks at the queue, for work another process made due. */
  pollIntervalMs: number;
  /** How long a claim holds an item; a crashed worker's item is free after it. */
  leaseMs: number;
  /** What the loop works on, for its log lines ("webhook deliveries", "outbound mail"). */
  work: string;
}

/**
 * Works a queue off, shaped like a BullMQ worker: a loop bounded by `concurrency` that claims due items under a
 * lease, woken by `wake()` (when new work is announced) and by a timer set to the next due item; loop errors are
 * logged, never thrown; `close()` is idempotent and waits for the attempts in flight.
 */
export class DueWorkLoop<T> {
  private readonly inFlight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  private wakePending = false;
  private closing: Promise<void> | null = null;

  constructor(
    private readonly work: DueWork<T>,
    private readonly o: DueWorkLoopOptions,
  ) {}

  /** Looks for due work on the next turn (calls within one turn coalesce). */
  wake(): void {
    if (this.wakePending || this.closing !== null) return;
    this.wakePending = true;
    setImmediate(() => {
      this.wakePending = false;
      this.tick();
    });
  }

  /** Stops claiming and resolves once every attempt in flight has been recorded. Safe to call repeatedly. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      if (this.timer !== null) clearTimeout(this.timer);
      await Promise.allSettled([...this.inFlight]);
    })();
    return this.closing;
  }

  private tick(): void {
    if (this.closing !== null) return;
    try {
      while (this.inFlight.size < this.o.concurrency) {
        const now = this.o.clock.now();
        const item = this.work.claim(now, now + this.o.leaseMs);
        if (item === undefined) break;
        const attempt: Promise<void> = this.work
          .attempt(item)
          .catch((err: unknown) => this.o.logger.error({ err, ...this.work.logFields(item) }, `${this.o.work}: an attempt could not be recorded`))
          .finally(() => {
            this.inFlight.delete(attempt);
            this.wake();
          });
        this.inFlight.add(attempt);
      }
    } catch (err) {
      this.o.logger.error({ err }, `${this.o.work}: could not claim due work`);
    }
    this.armTimer();
  }

  private armTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    if (this.closing !== null) return;
    let delay = this.o.pollIntervalMs;
    if (this.inFlight.size < this.o.concurrency) {
      try {
        const next = this.work.nextDueAt();
        if (next !== null) delay = Math.min(delay, Math.max(0, next - this.o.clock.now()));
      } catch (err) {
        this.o.logger.error({ err }, `${this.o.work}: could not read the queue`);
      }
    }
    this.timer = setTimeout(() => this.wake(), delay);
    this.timer.unref();
  }
}
