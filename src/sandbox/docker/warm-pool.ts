import type { Logger } from 'pino';
import type { DockerSandbox } from './docker-sandbox.js';

export interface WarmPoolOptions {
  size: number;
  /** Starts one healthy, run-less sandbox. */
  start: (signal: AbortSignal) => Promise<DockerSandbox>;
  logger: Logger;
  /** Wait after a failed start before trying again, so that a broken engine is not hammered. */
  retryDelayMs?: number;
}

const HEALTH_TIMEOUT_MS = 2_000;

/**
 * Started sandboxes kept ready for runs. Each is handed out once and never comes back: the run destroys it, and
 * the pool starts a replacement in the background.
 */
export class WarmPool {
  private readonly ready: DockerSandbox[] = [];
  private starting = 0;
  private readonly stopper = new AbortController();
  private readonly inFlight = new Set<Promise<void>>();
  private closing: Promise<void> | undefined;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: WarmPoolOptions) {}

  get readyCount(): number {
    return this.ready.length;
  }

  /** Starts filling the pool up to its size; returns at once. */
  fill(): void {
    if (this.closing !== undefined) return;
    while (this.ready.length + this.starting < this.options.size) {
      this.starting++;
      const started = this.startOne().finally(() => {
        this.starting--;
        this.inFlight.delete(started);
      });
      this.inFlight.add(started);
    }
  }

  /** A ready sandbox that still answers, or null when none is; the pool refills behind it. */
  async take(): Promise<DockerSandbox | null> {
    while (this.closing === undefined) {
      const sandbox = this.ready.shift();
      if (sandbox === undefined) break;
      this.fill();
      if (await sandbox.isHealthy(HEALTH_TIMEOUT_MS)) return sandbox;
      this.options.logger.warn({ sandbox: sandbox.id }, 'pooled sandbox stopped answering; discarding it');
      await sandbox.destroy();
    }
    this.fill();
    return null;
  }

  /** Stops refilling, waits for starts in flight and destroys every pooled sandbox; idempotent. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      clearTimeout(this.retryTimer);
      this.stopper.abort(new Error('warm pool closed'));
      await Promise.allSettled([...this.inFlight]);
      await Promise.all(this.ready.splice(0).map((sandbox) => sandbox.destroy()));
    })();
    return this.closing;
  }

  private async startOne(): Promise<void> {
    try {
      const sandbox = await this.options.start(this.stopper.signal);
      if (this.closing !== undefined) {
        await sandbox.destroy();
        return;
      }
      this.ready.push(sandbox);
    } catch (error) {
      if (this.closing !== undefined) return;
      this.options.logger.warn({ err: error }, 'starting a pooled sandbox failed; retrying later');
      clearTimeout(this.retryTimer);
      this.retryTimer = setTimeout(() => this.fill(), this.options.retryDelayMs ?? 5_000);
      this.retryTimer.unref();
    }
  }
}
