import type { HttpClient } from '../core.js';
import { EventStream, type StreamOptions } from '../event-stream.js';
import type { SseMessage } from '../sse.js';
import type { ErrandEvent } from '../types.js';
import { Resource } from './resource.js';

/** The organisation's live events (`GET /v1/events`). */
export class Events extends Resource {
  /**
   * Every event of the organisation from now on (or after `lastEventId`), resumed across cuts; it never ends by
   * itself: `break` out of the loop or abort `signal`. Ignore `type`s you do not know: the daemon adds them.
   */
  stream(options: StreamOptions = {}): EventStream<ErrandEvent> {
    return eventStream(this.http, '/v1/events', {}, options);
  }
}

const END_EVENTS: ReadonlySet<string> = new Set(['run.completed', 'run.failed', 'run.cancelled']);

/** An event that ends its run, whose data is the run's final envelope. */
export type RunEndEvent = Extract<ErrandEvent, { type: 'run.completed' | 'run.failed' | 'run.cancelled' }>;

/** Whether an event ends its run (`run.completed`, `run.failed`, `run.cancelled`: its stream ends after it). */
export function endsRun(event: ErrandEvent): event is RunEndEvent {
  return END_EVENTS.has(event.type);
}

/** A stream of the API's events at `path`, resumed with Last-Event-ID; `isLast` ends it early. */
export function eventStream(http: HttpClient, path: string, pathParams: Record<string, string>, options: StreamOptions, isLast?: (event: ErrandEvent) => boolean): EventStream<ErrandEvent> {
  const open = async (lastEventId: string | null, signal: AbortSignal | undefined) => {
    const response = await http.open({
      method: 'GET',
      path,
      pathParams,
      options: { signal, maxRetries: 0, headers: { accept: 'text/event-stream', ...(lastEventId !== null ? { 'last-event-id': lastEventId } : {}) } },
    });
    if (response.status === 204) {
      await response.body?.cancel();
      return null;
    }
    return response;
  };
  return new EventStream<ErrandEvent>(open, options, (message: SseMessage) => (message.data === '' ? null : (JSON.parse(message.data) as ErrandEvent)), isLast);
}
