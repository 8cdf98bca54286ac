import type { FromSchema } from 'json-schema-to-ts';
import { connectionSchema } from '../connections/connection-schemas.js';
import { nullableString, timestamp } from '../http-schemas/common.js';
import { receivedEmailSchema } from '../mail/email-schemas.js';
import { envelopeSchema, runStatus } from '../runs/run-schemas.js';
import { stepSchema } from '../steps/step-schemas.js';
import { humanAnsweredData, needsHumanData } from '../human/human-schemas.js';
import type { WebhookSigner } from '../vocabulary/webhook-signers.js';
import { RUN_STATUSES, type TerminalStatus } from '../vocabulary/run-status.js';

/** Where an event's webhook goes; `EventAnnouncer` finds the address when the event happens. */
export const WEBHOOK_TARGETS = {
  run_callback: "the run's `callback_url`",
  org_endpoint: "the organisation's webhook endpoint (`errand webhooks endpoint set`)",
  mailbox_callback: "the mailbox's `callback_url`, else the identity's (none for mail to a run's address)",
} as const;
export type WebhookTarget = keyof typeof WEBHOOK_TARGETS;

/** The secret each kind of webhook is signed with (the delivery worker reads it by the delivery's `signer`). */
export const WEBHOOK_SIGNERS: Record<WebhookSigner, string> = {
  org: "the organisation's secret (`errand webhooks secret`)",
  email: "the identity's `webhook_secret`",
};

/** Which events are about one run: those carry its id and are also in that run's stream. */
export const RUN_ID_USES = {
  always: 'the run',
  sometimes: 'the run, or null',
  never: 'null',
} as const;

/** What the catalogue says of one event. */
export interface EventSpec {
  /** What happened, and what `data` holds (docs/api.md's table and the OpenAPI document show it). */
  description: string;
  /** The JSON Schema of `data` as the webhook carries it; the log's copy leaves out `logOmits`. */
  data: { type: 'object'; properties: Record<string, unknown>; required: readonly string[]; [keyword: string]: unknown };
  runId: keyof typeof RUN_ID_USES;
  /** The run status this event announces the end of: it ends the run's stream, and its data is the final envelope. */
  endsRun?: TerminalStatus;
  /** Where the event is also sent as a webhook, and signed with which secret; null: only the log and streams. */
  webhook: { to: WebhookTarget; signer: WebhookSigner } | null;
  /** Members of `data` the event log (and so every stream) leaves out: message bodies go to the webhook only. */
  logOmits?: readonly string[];
  /** A member of `data` given as JSON text and sent byte for byte (an email's `metadata`, as its sender wrote it). */
  verbatim?: string;
}

const connectionEvent = { runId: 'never', webhook: { to: 'org_endpoint', signer: 'org' }, data: connectionSchema } as const;
const runEnd = { runId: 'always', webhook: { to: 'run_callback', signer: 'org' }, data: envelopeSchema } as const;
const sendMetadata = { type: ['object', 'null'], additionalProperties: true, description: 'The send\'s `metadata`, byte for byte as it was given.' } as const;

/**
 * Every event Errand emits, once: its type, what it means, its data's schema, whether it belongs to a run, and where
 * it goes besides the event log. Producers announce events through `EventAnnouncer`, which accepts only these types
 * with their data; the streams, the OpenAPI document, docs/api.md's table, `errand listen` and the TUI read it here.
 */
export const EVENT_CATALOGUE = {
  'run.status': {
    description: "A run's status changed, its creation included: `{run_id, from, to, description}`; `from` is null when the run was created.",
    runId: 'always',
    webhook: null,
    data: {
      type: 'object',
      required: ['run_id', 'from', 'to', 'description'],
      properties: {
        run_id: { type: 'string' },
        from: { type: ['string', 'null'], enum: [...RUN_STATUSES, null] },
        to: runStatus,
        description: { type: 'string', description: 'Why, in words.' },
      },
    },
  },
  'run.step': {
    description: 'A model or tool call was recorded: the step as `GET /v1/runs/{id}/steps` lists it, plus `run_cost_usd` (the run\'s cost after the step).',
    runId: 'always',
    webhook: null,
    data: {
      ...stepSchema,
      required: [...stepSchema.required, 'run_cost_usd'],
      properties: { ...stepSchema.properties, run_cost_usd: { type: 'number' } },
    },
  },
  'run.needs_human': {
    description:
      "The run's agent asked for a person (request_human) and waits: `{run_id, waitpoint_id, request_id, kind, question, asked_at, asked_again_of, expires_at, live_url, answer_url}`; " +
      'the run stays `running`, its `waiting_for` says the same.',
    runId: 'always',
    webhook: { to: 'run_callback', signer: 'org' },
    data: needsHumanData,
  },
  'run.human_answered': {
    description:
      'A person answered what the agent asked, and the agent goes on: `{run_id, request_id, kind, answer, approved, note, answered_by, answered_via, answered_at}`.',
    runId: 'always',
    webhook: { to: 'run_callback', signer: 'org' },
    data: humanAnsweredData,
  },
  'run.completed': { ...runEnd, endsRun: 'succeeded', description: 'The run succeeded: its final envelope, as `GET /v1/runs/{id}` answers it.' },
  'run.failed': { ...runEnd, endsRun: 'failed', description: 'The run failed: its final envelope.' },
  'run.cancelled': { ...runEnd, endsRun: 'cancelled', description: 'The run was cancelled: its final envelope.' },
  'webhook.attempted': {
    description:
      'One attempt to deliver a webhook, and where it leaves the delivery (`pending`, `succeeded`, `failed`): `{delivery_id, event_id, event, run_id, url, attempt, status_code, latency_ms, error, status, next_attempt_at}`.',
    runId: 'never',
    webhook: null,
    data: {
      type: 'object',
      required: ['delivery_id', 'event_id', 'event', 'run_id', 'url', 'attempt', 'status_code', 'latency_ms', 'error', 'status', 'next_attempt_at'],
      properties: {
        delivery_id: { type: 'string' },
        event_id: { type: 'string', description: 'The webhook-id header of every attempt of the delivery.' },
        event: { type: 'string', description: "The delivered event's type." },
        run_id: nullableString,
        url: { type: 'string' },
        attempt: { type: 'integer' },
        status_code: { type: ['integer', 'null'] },
        latency_ms: { type: 'integer' },
        error: nullableString,
        status: { type: 'string', enum: ['pending', 'succeeded', 'failed'] },
        next_attempt_at: { type: ['string', 'null'], format: 'date-time' },
      },
    },
  },
  'schedule.fired': {
    description: "A job's schedule fired and started a run: `{job_id, slot, run_id}`.",
    runId: 'never',
    webhook: null,
    data: {
      type: 'object',
      required: ['job_id', 'slot', 'run_id'],
      properties: { job_id: { type: 'string' }, slot: { ...timestamp, description: 'The time the firing was scheduled for.' }, run_id: { type: 'string' } },
    },
  },
  'schedule.skipped': {
    description: 'A firing that started no run, and why: `{job_id, slot, code, message, param}` (also listed by `GET /v1/jobs/{id}/skipped_firings`).',
    runId: 'never',
    webhook: null,
    data: {
      type: 'object',
      required: ['job_id', 'slot', 'code', 'message', 'param'],
      properties: {
        job_id: { type: 'string' },
        slot: timestamp,
        code: { type: 'string', description: 'What refused the run, as the API would have answered it (`missing_input`, `daily_cap_reached`, ...).' },
        message: { type: 'string' },
        param: nullableString,
      },
    },
  },
  'schedule.paused': {
    description: "A job change left its schedule's inputs failing, so the schedule was paused: `{job_id, reason}`.",
    runId: 'never',
    webhook: null,
    data: { type: 'object', required: ['job_id', 'reason'], properties: { job_id: { type: 'string' }, reason: { type: 'string' } } },
  },
  'email.received': {
    description:
      "Mail arrived at the identity, an inbox or a run's address: the message as `GET /v1/emails/received/{id}` answers it, with the `metadata` of the send it answers; the event log leaves out `text` and `html`.",
    runId: 'sometimes',
    webhook: { to: 'mailbox_callback', signer: 'email' },
    logOmits: ['text', 'html'],
    verbatim: 'metadata',
    data: receivedEmailSchema,
  },
  'email.bounced': {
    description:
      'A recipient of a send bounced for good and is suppressed: `{message_id, correlation_token, recipient, status, diagnostic, source, suppressed, bounced_at, metadata}`.',
    runId: 'never',
    webhook: { to: 'mailbox_callback', signer: 'email' },
    verbatim: 'metadata',
    data: {
      type: 'object',
      required: ['message_id', 'correlation_token', 'recipient', 'status', 'diagnostic', 'source', 'suppressed', 'bounced_at', 'metadata'],
      properties: {
        message_id: { type: 'string' },
        correlation_token: nullableString,
        recipient: { type: 'string' },
        status: { ...nullableString, description: 'The enhanced status code (RFC 3463), such as 5.1.1.' },
        diagnostic: nullableString,
        source: { type: 'string', enum: ['report', 'relay'], description: 'A delivery-status report that came back, or the relay refusing the recipient.' },
        suppressed: { type: 'boolean' },
        bounced_at: timestamp,
        metadata: sendMetadata,
      },
    },
  },
  'email.complained': {
    description:
      'A recipient complained about a send (a feedback report): `{message_id, correlation_token, recipient, feedback_type, user_agent, suppressed, complained_at, metadata}`.',
    runId: 'never',
    webhook: { to: 'mailbox_callback', signer: 'email' },
    verbatim: 'metadata',
    data: {
      type: 'object',
      required: ['message_id', 'correlation_token', 'recipient', 'feedback_type', 'user_agent', 'suppressed', 'complained_at', 'metadata'],
      properties: {
        message_id: { type: 'string' },
        correlation_token: nullableString,
        recipient: { ...nullableString, description: 'Null when the report named none of the send\'s recipients.' },
        feedback_type: { type: 'string' },
        user_agent: nullableString,
        suppressed: { type: 'boolean' },
        complained_at: timestamp,
        metadata: sendMetadata,
      },
    },
  },
  'connection.authenticated': { ...connectionEvent, description: 'A connection became authenticated, or a connect flow finished: the connection record.' },
  'connection.expired': { ...connectionEvent, description: "The provider refused to refresh a connection's token (connect again): the connection record." },
} as const satisfies Record<string, EventSpec>;

export type EventCatalogue = typeof EVENT_CATALOGUE;
export type EventType = keyof EventCatalogue;

/** Every event type, in the catalogue's order. */
export const EVENT_TYPES = Object.keys(EVENT_CATALOGUE) as EventType[];

/** The spec of a type, as code that handles every type reads it; a type that got past the compiler is refused. */
export function eventSpec(type: EventType): EventSpec {
  const spec: EventSpec | undefined = EVENT_CATALOGUE[type];
  if (spec === undefined) throw new Error(`event type '${String(type)}' is not in the event catalogue`);
  return spec;
}

/** Whether `type` is one the catalogue describes (the log also holds whatever another version appended). */
export function isEventType(type: string): type is EventType {
  return Object.hasOwn(EVENT_CATALOGUE, type);
}

/**
 * A schema's type without the `[x: string]: unknown` json-schema-to-ts adds where a schema allows other members:
 * producers pass interfaces (the envelope, the connection record), which TypeScript never gives an index signature.
 */
type Known<T> = T extends readonly unknown[]
  ? { [I in keyof T]: Known<T[I]> }
  : T extends object
    ? { [K in keyof T as string extends K ? (unknown extends T[K] ? never : K) : K]: Known<T[K]> }
    : T;

/** The data of an event of type `T`, as its webhook carries it. */
export type EventData<T extends EventType> = Known<FromSchema<EventCatalogue[T]['data']>>;

/** The data of an event of type `T` as the event log and the streams carry it. */
export type LoggedEventData<T extends EventType> = EventCatalogue[T] extends { logOmits: readonly (infer M extends string)[] } ? Omit<EventData<T>, M> : EventData<T>;

/** The types of events sent as webhooks. */
export type WebhookEventType = { [T in EventType]: EventCatalogue[T]['webhook'] extends null ? never : T }[EventType];

/** Whether events of `type` are sent as webhooks. */
export function isWebhookEventType(type: string): type is WebhookEventType {
  return isEventType(type) && eventSpec(type).webhook !== null;
}

/** The events sent as webhooks: what `errand listen` forwards unless told otherwise. */
export const WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = EVENT_TYPES.filter(isWebhookEventType);

/** The events whose webhooks go to `target`. */
export function webhookEventsTo(target: WebhookTarget): EventType[] {
  return EVENT_TYPES.filter((t) => eventSpec(t).webhook?.to === target);
}

/** The types of events that end a run's stream. */
export type RunEndEventType = { [T in EventType]: EventCatalogue[T] extends { endsRun: TerminalStatus } ? T : never }[EventType];

const END_EVENT_OF = {} as Record<TerminalStatus, RunEndEventType>;
for (const type of EVENT_TYPES) {
  const ends = eventSpec(type).endsRun;
  if (ends !== undefined) END_EVENT_OF[ends] = type as RunEndEventType;
}

/** The event that announces a run's end in `status`. */
export function runEndEventOf(status: TerminalStatus): RunEndEventType {
  return END_EVENT_OF[status];
}

/** Whether an event of this type ends its run's stream. */
export function isRunEndEvent(type: string): boolean {
  return isEventType(type) && eventSpec(type).endsRun !== undefined;
}

/** The schema of an event's data as the log and streams carry it: the webhook's, less `logOmits`. */
export function loggedDataSchema(type: EventType): EventSpec['data'] {
  const spec = eventSpec(type);
  const omitted = spec.logOmits;
  if (omitted === undefined) return spec.data;
  return {
    ...spec.data,
    required: spec.data.required.filter((name) => !omitted.includes(name)),
    properties: Object.fromEntries(Object.entries(spec.data.properties).filter(([name]) => !omitted.includes(name))),
  };
}
