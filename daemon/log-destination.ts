import type { DestinationStream } from 'pino';

/** What the lines are finally written to: pino's synchronous destination (it retries partial writes and EAGAIN). */
export interface LineSink {
  write(text: string): unknown;
}

/**
 * Where the daemon's log lines go: collected during a turn of the event loop and written together, synchronously,
 * when the turn ends. Under load that is one write for all the lines of a turn, and none of the thread-pool round
 * trips an asynchronous destination makes per write; and a crash loses at most the lines of its own turn, as the
 * daemon flushes on exit.
 */
export class TurnBatchedDestination implements DestinationStream {
  private pending = '';

  constructor(private readonly sink: LineSink) {}

  write(line: string): void {
    if (this.pending === '') setImmediate(this.flushPending);
    this.pending += line;
  }

  /** Writes what is pending now; pino's `logger.flush()` calls it. */
  flush(callback?: (err?: Error) => void): void {
    this.flushPending();
    callback?.();
  }

  private readonly flushPending = (): void => {
    if (this.pending === '') return;
    const text = this.pending;
    this.pending = '';
    this.sink.write(text);
  };
}
