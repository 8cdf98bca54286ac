import { setTimeout as sleep } from 'node:timers/promises';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import type { EventType, LoggedEventData } from '../src/event-log/event-catalogue.js';
import type { ApiClient } from './api-client.js';
import { ApiConnectionError } from './api-error.js';

/** One event of a stream, as the API sends it in the `data:` line. */
export interface StreamEvent {
  id: number;
  object: 'event';
  type: string;
  run_id: string | null;
  created_at: string;
  data: any;
}

/** An event of one of the types `T`, with its data as the event catalogue describes it. */
export type StreamEventOf<T extends EventType> = { [K in T]: StreamEvent & { type: K; data: LoggedEventData<K> } }[T];

/** Whether the event is of one of `types`; then its data has the catalogue's type. */
export function isEventOf<T extends EventType>(event: StreamEvent, ...types: T[]): event is StreamEventOf<T> {
  return (types as string[]).includes(event.type);
}

export interface FollowOptions {
  /** Resume after this event (null: the stream's own start). */
  lastEventId?: number | null;
  signal?: AbortSignal;
  /** Told when the connection drops and when it is back, for a status display. */
  onConnection?: (state: 'connected' | 'reconnecting') => void;
  /** How long to keep trying to reconnect before giving up; default 60 s. */
  reconnectForMs?: number;
}

/**
 * Follows a server-sent event stream of the API, yielding each event once: when the connection drops (a daemon
 * restart included) it reconnects with Last-Event-ID, so nothing is missed or repeated, and it returns when the
 * server says there is nothing more (204: a run whose events have all been seen).
 */
export async function* followEvents(api: ApiClient, path: string, options: FollowOptions = {}): AsyncGenerator<StreamEvent> {
  let last = options.lastEventId ?? null;
  let failingSince: number | null = null;
  let delayMs = 250;
  for (;;) {
    let res: Response;
    try {
      res = await api.openEventStream(path, { lastEventId: last, ...(options.signal === undefined ? {} : { signal: options.signal }) });
    } catch (err) {
      if (!(err instanceof ApiConnectionError)) throw err;
      failingSince ??= Date.now();
      if (Date.now() - failingSince > (options.reconnectForMs ?? 60_000)) throw err;
      options.onConnection?.('reconnecting');
      await sleep(delayMs, undefined, options.signal === undefined ? {} : { signal: options.signal });
      delayMs = Math.min(delayMs * 2, 5_000);
      continue;
    }
    if (res.status === 204 || res.body === null) return;
    failingSince = null;
    delayMs = 250;
    options.onConnection?.('connected');
    const events = res.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
    try {
      for (;;) {
        const { done, value } = await events.read();
        if (done) break;
        const event = JSON.parse(value.data) as StreamEvent;
        if (last !== null && event.id <= last) continue;
        last = event.id;
        yield event;
      }
    } catch (err) {
      if (options.signal?.aborted) throw err;
      // The connection broke (the daemon stopped): reconnect after the last event seen.
    } finally {
      await events.cancel().catch(() => undefined);
    }
    options.onConnection?.('reconnecting');
  }
}
