import { idParam, nullableString, timestamp } from '../http-schemas/common.js';
import type { Validated } from '../http-schemas/validated.js';
import { profileSchema } from '../profiles/profile-schemas.js';
import { PROFILE_NAME_PATTERN } from '../runs/run-options.js';
import { envelopeSchema } from '../runs/run-schemas.js';

const modifiers = { type: 'integer', minimum: 0, maximum: 15, default: 0, description: 'CDP modifier bits: Alt 1, Ctrl 2, Meta 4, Shift 8; none when left out.' } as const;
const coordinate = (axis: string) => ({ type: 'number', minimum: 0, maximum: 100_000, description: `${axis} in the page's CSS pixels (LiveFrame width and height).` }) as const;
const delta = { type: 'number', minimum: -100_000, maximum: 100_000 } as const;

/**
 * A person's input, as CDP's Input domain takes it (src/sandbox/protocol.ts, LiveInput). Discriminated by `type`: a body
 * is checked against its type's member only, so a mistake is reported for the type given (and the defaults apply).
 */
export const liveInputSchema = {
  type: 'object',
  required: ['type'],
  discriminator: { propertyName: 'type' },
  oneOf: [
    {
      type: 'object',
      additionalProperties: false,
      required: ['type', 'event', 'x', 'y', 'button', 'clickCount'],
      properties: {
        type: { type: 'string', const: 'mouse' },
        event: { type: 'string', enum: ['mousePressed', 'mouseReleased', 'mouseMoved'] },
        x: coordinate('x'),
        y: coordinate('y'),
        button: { type: 'string', enum: ['none', 'left', 'middle', 'right'] },
        clickCount: { type: 'integer', minimum: 0, maximum: 3 },
        modifiers,
      },
    },
    {
      type: 'object',
      additionalProperties: false,
      required: ['type', 'x', 'y', 'deltaX', 'deltaY'],
      properties: { type: { type: 'string', const: 'wheel' }, x: coordinate('x'), y: coordinate('y'), deltaX: delta, deltaY: delta, modifiers },
    },
    {
      type: 'object',
      additionalProperties: false,
      required: ['type', 'event', 'key', 'code', 'keyCode', 'text'],
      properties: {
        type: { type: 'string', const: 'key' },
        event: { type: 'string', enum: ['keyDown', 'keyUp'] },
        key: { type: 'string', maxLength: 64, description: 'KeyboardEvent.key' },
        code: { type: 'string', maxLength: 64, description: 'KeyboardEvent.code' },
        keyCode: { type: 'integer', minimum: 0, maximum: 255, description: 'The Windows virtual key code (KeyboardEvent.keyCode).' },
        text: { type: 'string', maxLength: 8, description: 'What the key types ("" for keys that type nothing, "\\r" for Enter).' },
        modifiers,
      },
    },
    {
      type: 'object',
      additionalProperties: false,
      required: ['type', 'text'],
      properties: { type: { type: 'string', const: 'text' }, text: { type: 'string', maxLength: 10_000, description: 'Inserted as if pasted.' } },
    },
    {
      type: 'object',
      additionalProperties: false,
      required: ['type', 'index'],
      properties: {
        type: { type: 'string', const: 'tab' },
        index: { type: 'integer', minimum: 0, maximum: 1000, description: 'The tab to show, as the frame stream\'s `tabs` event lists them; the agent goes on in it.' },
      },
    },
  ],
} as const;

const controlId = { type: 'string', minLength: 1, maxLength: 64, description: 'What POST /v1/runs/{id}/live/control answered.' } as const;

const liveControlSchema = {
  type: 'object',
  required: ['object', 'run_id', 'control_id', 'since'],
  properties: { object: { type: 'string', const: 'live_control' }, run_id: { type: 'string' }, control_id: { type: 'string' }, since: timestamp },
} as const;

const handBackSchema = {
  type: 'object',
  required: ['object', 'run_id', 'started_at', 'ended_at', 'duration_ms', 'answered_request_id'],
  properties: {
    object: { type: 'string', const: 'live_control_ended' },
    run_id: { type: 'string' },
    started_at: timestamp,
    ended_at: timestamp,
    duration_ms: { type: 'integer' },
    answered_request_id: {
      ...nullableString,
      description: 'The takeover the agent asked for (request_human) that this hand-back answered, with its note; null when the run waited for none.',
    },
  },
} as const;

const stateSchema = {
  type: 'object',
  required: ['object', 'run', 'thought', 'control', 'viewers', 'profiles'],
  properties: {
    object: { type: 'string', const: 'live_state' },
    run: envelopeSchema,
    thought: { ...nullableString, description: "The text of the agent's latest model answer, or null." },
    control: {
      type: 'object',
      required: ['held', 'since', 'by'],
      properties: { held: { type: 'boolean' }, since: nullableString, by: nullableString },
    },
    viewers: { type: 'integer', description: 'Frame streams open on this run now.' },
    profiles: {
      type: 'array',
      items: { type: 'string' },
      description: "The profiles \"save this login\" offers: the run's profile and save_profile. Another name makes a new profile.",
    },
  },
} as const;

const revocationSchema = {
  type: 'object',
  required: ['object', 'run_id', 'revoked_at', 'control_released'],
  properties: {
    object: { type: 'string', const: 'live_revocation' },
    run_id: { type: 'string' },
    revoked_at: timestamp,
    control_released: { type: 'boolean' },
  },
} as const;

const frameStream = {
  description:
    'Server-sent events: `frame` with {jpeg (base64), width, height (the viewport in CSS pixels), url}, or `waiting` before the browser has a page; `tabs` with {tabs: [{index, url, title, current}]} when a watcher joins and whenever a tab opens, closes or becomes current (the frames show the current one). Ends when the run stops or its links are revoked.',
  content: { 'text/event-stream': { schema: { type: 'string' } } },
} as const;

const noBody = { type: 'object', additionalProperties: false, properties: {} } as const;

export const liveRouteSchemas = {
  frames: { params: idParam('run'), response: { 200: frameStream } },
  state: { params: idParam('run'), response: { 200: stateSchema } },
  take: { params: idParam('run'), body: noBody, response: { 200: liveControlSchema } },
  handBack: {
    params: idParam('run'),
    body: {
      type: 'object',
      additionalProperties: false,
      required: ['control_id'],
      properties: { control_id: controlId, note: { ...nullableString, maxLength: 2000, description: 'What the person did; told to the agent and kept in the step.' } },
    },
    response: { 200: handBackSchema },
  },
  input: {
    params: idParam('run'),
    body: { type: 'object', additionalProperties: false, required: ['control_id', 'input'], properties: { control_id: controlId, input: liveInputSchema } },
    response: { 204: { description: 'Handed to the page.', type: 'null' } },
  },
  revoke: { params: idParam('run'), body: noBody, response: { 200: revocationSchema } },
  saveLogin: {
    params: idParam('run'),
    body: {
      type: 'object',
      additionalProperties: false,
      required: ['control_id', 'profile'],
      properties: {
        control_id: controlId,
        profile: {
          type: 'string',
          pattern: PROFILE_NAME_PATTERN,
          description: "The profile to save the browser's state as: the run's profile or save_profile, or a new name (an API key may name any).",
        },
      },
    },
    response: { 200: profileSchema },
  },
} as const;

export type LiveInputBody = Validated<typeof liveRouteSchemas.input.body>;
export type HandBackBody = Validated<typeof liveRouteSchemas.handBack.body>;
