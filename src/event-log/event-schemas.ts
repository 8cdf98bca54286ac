import { idParam, nullableString, timestamp } from '../http-schemas/common.js';

/** One event as a stream sends it: the `data:` line of the server-sent event, whose `id:` and `event:` repeat `id` and `type`. */
export const eventSchema = {
  type: 'object',
  required: ['id', 'object', 'type', 'run_id', 'created_at', 'data'],
  properties: {
    id: { type: 'integer', description: 'Durable and increasing: send the last one you saw as Last-Event-ID to resume after it.' },
    object: { type: 'string', const: 'event' },
    type: {
      type: 'string',
      description:
        'run.status, run.step, run.completed, run.failed, run.cancelled, webhook.attempted, schedule.fired, schedule.skipped, schedule.paused, and other types as the daemon gains them (email.*, connection.*): ignore types you do not know.',
    },
    run_id: { ...nullableString, description: 'The run the event is about, if any.' },
    created_at: timestamp,
    data: { description: "The event's data: for run.completed, run.failed and run.cancelled, the run's final envelope (the webhook's data)." },
  },
} as const;

const lastEventIdHeader = {
  type: 'object',
  properties: {
    'last-event-id': { type: 'string', description: 'Resume after this event id (sent by EventSource clients when they reconnect).' },
  },
} as const;

const stream = (description: string) => ({ description, content: { 'text/event-stream': { schema: eventSchema } } });

export const eventRouteSchemas = {
  org: {
    headers: lastEventIdHeader,
    response: {
      200: stream(
        "The organisation's events as server-sent events, live: after Last-Event-ID when given, otherwise from now on. A comment line is sent every events.heartbeat_s seconds.",
      ),
    },
  },
  run: {
    params: idParam('run'),
    headers: lastEventIdHeader,
    response: {
      200: stream(
        "The run's events as server-sent events: after Last-Event-ID when given, otherwise from its first; the stream ends after run.completed, run.failed or run.cancelled.",
      ),
      204: { description: 'The run has ended and the client has seen all its events (EventSource clients stop reconnecting).', type: 'null' },
    },
  },
} as const;
