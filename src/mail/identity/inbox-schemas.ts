import type { Validated } from '../../http-schemas/validated.js';
import { deletedResponse, idParam, listQuery, listResponse, nullableString, timestamp } from '../../http-schemas/common.js';
import { USERNAME_PATTERN } from '../addresses.js';
import { emailSendResultSchema, sendEmailBodySchema } from '../email-schemas.js';

export const inboxSchema = {
  type: 'object',
  required: ['id', 'object', 'address', 'username', 'display_name', 'callback_url', 'created_at', 'updated_at'],
  properties: {
    id: { type: 'string' },
    object: { type: 'string', const: 'inbox' },
    address: { type: 'string' },
    username: { type: 'string' },
    display_name: nullableString,
    callback_url: nullableString,
    created_at: timestamp,
    updated_at: timestamp,
  },
} as const;

const displayName = { type: ['string', 'null'], minLength: 1, maxLength: 200, pattern: '^[^\\r\\n]*$', description: "The From name of its messages; default the organisation's name." } as const;
const callbackUrl = { type: ['string', 'null'], format: 'uri', maxLength: 2048, description: "Target of this inbox's email events; null uses the identity's callback_url." } as const;

export const createInboxBodySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    username: { type: 'string', pattern: USERNAME_PATTERN, description: "3 to 32 of a-z, 0-9 and hyphen, unique; default the identity's username and a random suffix." },
    display_name: displayName,
    callback_url: callbackUrl,
  },
} as const;

export const updateInboxBodySchema = {
  type: 'object',
  additionalProperties: false,
  properties: { display_name: displayName, callback_url: callbackUrl },
} as const;

export const inboxRouteSchemas = {
  create: { body: createInboxBodySchema, response: { 201: inboxSchema } },
  list: { querystring: listQuery('inb'), response: { 200: listResponse(inboxSchema) } },
  get: { params: idParam('inb'), response: { 200: inboxSchema } },
  update: { params: idParam('inb'), body: updateInboxBodySchema, response: { 200: inboxSchema } },
  delete: { params: idParam('inb'), response: { 200: deletedResponse('inbox') } },
  send: { params: idParam('inb'), body: sendEmailBodySchema, response: { 202: emailSendResultSchema } },
} as const;

export type CreateInboxBody = Validated<typeof createInboxBodySchema>;
export type UpdateInboxBody = Validated<typeof updateInboxBodySchema>;
