import { idParam, nullableString, timestamp } from '../http-schemas/common.js';
import { EVENT_TYPES, RUN_ID_USES, WEBHOOK_EVENT_TYPES, WEBHOOK_SIGNERS, WEBHOOK_TARGETS, eventSpec, isRunEndEvent, loggedDataSchema } from './event-catalogue.js';

/**
 * One event as a stream sends it: the `data:` line of the server-sent event, whose `id:` and `event:` repeat `id` and
 * `type`. `oneOf` gives each type's data, from the event catalogue.
 */
export const eventSchema = {
  type: 'object',
  required: ['id', 'object', 'livemode', 'type', 'run_id', 'created_at', 'data'],
  properties: {
    id: { type: 'integer', description: 'Durable and increasing: send the last one you saw as Last-Event-ID to resume after it.' },
    object: { type: 'string', const: 'event' },
    livemode: { type: 'boolean', description: 'False for an event of test mode (docs/api.md, Test mode).' },
    type: { type: 'string', enum: EVENT_TYPES, description: 'What happened. The daemon adds types as it gains features: ignore types you do not know.' },
    run_id: { ...nullableString, description: 'The run the event is about, if any: such events are also in the run\'s stream.' },
    created_at: timestamp,
    data: { description: "The event's data: its schema depends on `type` (see oneOf)." },
  },
  oneOf: EVENT_TYPES.map((type) => {
    const spec = eventSpec(type);
    return {
      title: type,
      description: `${spec.description} run_id: ${RUN_ID_USES[spec.runId]}.`,
      properties: { type: { const: type }, data: loggedDataSchema(type) },
    };
  }),
} as const;

/**
 * The OpenAPI 3.1 `webhooks` of the document: each event also sent as a webhook, with the body a receiver gets and
 * the Standard Webhooks headers it is signed with.
 */
export const webhookDocuments: Record<string, object> = Object.fromEntries(
  WEBHOOK_EVENT_TYPES.map((type) => {
    const spec = eventSpec(type);
    const route = spec.webhook!;
    return [
      type,
      {
        post: {
          summary: type,
          description: `${spec.description} Sent to ${WEBHOOK_TARGETS[route.to]}, signed with ${WEBHOOK_SIGNERS[route.signer]}.`,
          parameters: [
            { in: 'header', name: 'webhook-id', required: true, schema: { type: 'string' }, description: 'The same for every attempt of one delivery: receivers deduplicate on it.' },
            { in: 'header', name: 'webhook-timestamp', required: true, schema: { type: 'string' }, description: 'Unix seconds of the attempt.' },
            { in: 'header', name: 'webhook-signature', required: true, schema: { type: 'string' }, description: 'Standard Webhooks signatures (`v1,<base64>`), one per secret that signs now.' },
          ],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['event', 'livemode', 'data'],
                  properties: { event: { type: 'string', const: type }, livemode: { type: 'boolean', description: 'False for an event of test mode (docs/api.md, Test mode).' }, data: spec.data },
                },
              },
            },
          },
          responses: { '2XX': { description: 'Received. Anything else is retried on the retry schedule; 410 stops the retries.' } },
        },
      },
    ];
  }),
);

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
        `The run's events as server-sent events: after Last-Event-ID when given, otherwise from its first; the stream ends after ${EVENT_TYPES.filter(isRunEndEvent).join(', ')}.`,
      ),
      204: { description: 'The run has ended and the client has seen all its events (EventSource clients stop reconnecting).', type: 'null' },
    },
  },
} as const;
