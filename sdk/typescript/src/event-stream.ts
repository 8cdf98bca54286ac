/**
 * A resumable event stream as an async iterator. It remembers the id of the last event it handed out and, when the
 * connection is cut (a daemon restart, a proxy's idle timeout), reconnects with `Last-Event-ID`, so the daemon sends
 * every later event from its log: none is lost and none comes twice.
 */
import { APIConnectionError, APIError } from './errors.js';
import { retryDelayMs, sleep } from './retry.js';
import { readSse, type SseMessage } from './sse.js';

export interface StreamOptions {
  /** Resume after this event id (what `lastEventId` held when an earlier stream stopped). */
  lastEventId?: string | number | null;
  /** Stops the stream (the iterator throws the signal's reason). */
  signal?: AbortSignal;
  /** How many reconnections in a row may fail before the stream gives up and throws. Default 10 (about a minute). */
  maxReconnects?: number;
  /** The wait before reconnecting after a cut. Default: what the stream's `retry` field said, else 1 000 ms. */
  reconnectDelayMs?: number;
  /**
   * Told when the stream is open (`connected`, again after each reconnection) and when it was cut and is being
   * opened again (`reconnecting`): for a display of the connection's state.
   */
  onConnection?: (state: 'connected' | 'reconnecting') => void;
}

/** Opens the stream after `lastEventId`; null when the daemon answered 204 (a run's stream after its end). */
export type StreamOpener = (lastEventId: string | null, signal: AbortSignal | undefined) => Promise<Response | null>;

export class EventStream<T> implements AsyncIterable<T> {
  /** The id of the last event handed out: pass it as `lastEventId` to resume elsewhere. */
  lastEventId: string | null;
  readonly #open: StreamOpener;
  readonly #options: StreamOptions;
  readonly #parse: (message: SseMessage) => T | null;
  readonly #isLast: (item: T) => boolean;

  constructor(open: StreamOpener, options: StreamOptions, parse: (message: SseMessage) => T | null, isLast: (item: T) => boolean = () => false) {
    this.#open = open;
    this.#options = options;
    this.#parse = parse;
    this.#isLast = isLast;
    this.lastEventId = options.lastEventId === undefined || options.lastEventId === null ? null : String(options.lastEventId);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    const { signal } = this.#options;
    const maxReconnects = this.#options.maxReconnects ?? 10;
    let serverRetryMs: number | null = null;
    let failures = 0;
    for (;;) {
      let response: Response | null;
      const { onConnection } = this.#options;
      try {
        response = await this.#open(this.lastEventId, signal);
      } catch (error) {
        if (signal?.aborted || !worthReconnecting(error) || failures >= maxReconnects) throw error;
        onConnection?.('reconnecting');
        await sleep(retryDelayMs(failures++, null, 500, 8_000), signal);
        continue;
      }
      if (response === null || response.body === null) return;
      failures = 0;
      onConnection?.('connected');
      try {
        for await (const message of readSse(response.body)) {
          if (message.retry !== null) serverRetryMs = message.retry;
          const item = this.#parse(message);
          if (message.id !== null) this.lastEventId = message.id;
          if (item === null) continue;
          yield item;
          if (this.#isLast(item)) return;
        }
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        if (failures >= maxReconnects) throw new APIConnectionError(`the event stream was cut: ${String(error)}`, { cause: error });
        failures++;
      }
      onConnection?.('reconnecting');
      await sleep(this.#options.reconnectDelayMs ?? serverRetryMs ?? 1_000, signal);
    }
  }
}

/**
 * A stream is worth opening again after no answer or a server failure, not after a refusal (401, 404, 400) nor a
 * 429 (too_many_streams, whose Retry-After is a minute): the caller hears of those at once, and `runs.wait` polls.
 */
function worthReconnecting(error: unknown): boolean {
  if (error instanceof APIError) return error.status >= 500;
  return error instanceof APIConnectionError;
}
