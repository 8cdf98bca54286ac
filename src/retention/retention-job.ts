import type { Logger } from 'pino';
import type { RetentionService } from './retention-service.js';

export interface RetentionJobOptions {
  /** Time between the end of one pass and the start of the next. */
  intervalMs: number;
  logger: Logger;
}

/**
 * The daemon's background purge, shaped like its other workers: a pass when it starts and then every interval, one
 * at a time; a pass's errors are logged, never thrown; `close()` is idempotent, stops the pass in progress between
 * two batches and waits for it.
 */
export class RetentionJob {
  private readonly abort = new AbortController();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private closing: Promise<void> | null = null;

  constructor(
    private readonly retention: RetentionService,
    private readonly options: RetentionJobOptions,
  ) {}

  start(): void {
    if (this.timer !== null || this.running !== null || this.closing !== null) return;
    this.schedule(0);
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.abort.abort();
      if (this.timer !== null) clearTimeout(this.timer);
      await this.running;
    })();
    return this.closing;
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.pass().finally(() => {
        this.running = null;
        if (this.closing === null) this.schedule(this.options.intervalMs);
      });
    }, delayMs);
    this.timer.unref();
  }

  private async pass(): Promise<void> {
    try {
      await this.retention.purge(this.abort.signal);
    } catch (err) {
      this.options.logger.error({ err }, 'retention pass failed');
    }
  }
}
