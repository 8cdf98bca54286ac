import type { JSONSchema } from 'json-schema-to-ts';
import type { Validated } from './validated.js';

/**
 * JSON schemas shared by every resource: the error shape, list envelope, ids and pagination. They validate
 * requests (daemon routes) and generate the OpenAPI document, so there is one source of truth.
 */
export const errorResponseSchema = {
  $id: 'ErrorResponse',
  type: 'object',
  required: ['error', 'request_id'],
  properties: {
    error: {
      type: 'object',
      required: ['type', 'code', 'message'],
      properties: {
        type: {
          type: 'string',
          enum: ['invalid_request_error', 'authentication_error', 'quota_error', 'not_found_error', 'conflict_error', 'rate_limit_error', 'api_error'],
        },
        code: { type: 'string' },
        message: { type: 'string' },
        param: { type: 'string' },
      },
    },
    request_id: { type: 'string' },
  },
} as const;

export function idParam(prefix: string) {
  return {
    type: 'object',
    required: ['id'],
    additionalProperties: false,
    properties: { id: { type: 'string', minLength: 1, maxLength: 128, description: `A \`${prefix}_\` id.` } },
  } as const;
}

/** The query of a signed download link (artifacts, email attachments): see `LinkSigner`. */
export const signedLinkQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    expires: { type: 'integer', description: 'Unix time (seconds) after which the link answers 410.' },
    sig: { type: 'string', maxLength: 128, description: 'HMAC signature of the id and expiry.' },
  },
} as const;
export type SignedLinkQuery = Validated<typeof signedLinkQuery>;

/** The shape of an id of type `prefix` (`run_` and a lower-case ULID), as a JSON Schema pattern. */
export function idPattern(prefix: string): string {
  return `^${prefix}_[0-9a-z]{26}$`;
}

/** A query parameter holding an id of type `prefix`: one of another shape is a 400 naming it, like `cursor`. */
export function idQueryParam(prefix: string, description: string) {
  return { type: 'string', pattern: idPattern(prefix), description } as const;
}

/**
 * The query of a list of `prefix` ids, newest first, with the resource's own `filters` beside the page's members.
 * `F` is a type parameter so that the filters' schemas, and with them the query's type, stay exact.
 */
export function listQuery<F extends Record<string, JSONSchema> = {}>(prefix: string, filters: F = {} as F) {
  return {
    type: 'object',
    additionalProperties: false,
    properties: {
      limit: { type: 'integer', minimum: 1, maximum: 200, default: 50, description: 'Page size, 1 to 200.' },
      cursor: { type: 'string', pattern: idPattern(prefix), description: 'The next_cursor of the previous page.' },
      ...filters,
    },
  } as const;
}

export function listResponse(item: object) {
  return {
    type: 'object',
    required: ['object', 'data', 'has_more', 'next_cursor'],
    properties: {
      object: { type: 'string', const: 'list' },
      data: { type: 'array', items: item },
      has_more: { type: 'boolean' },
      next_cursor: { type: ['string', 'null'] },
    },
  } as const;
}

export function deletedResponse(object: string) {
  return {
    type: 'object',
    required: ['id', 'object', 'deleted'],
    properties: { id: { type: 'string' }, object: { type: 'string', const: object }, deleted: { type: 'boolean', const: true } },
  } as const;
}

export const timestamp = { type: 'string', format: 'date-time' } as const;
export const nullableString = { type: ['string', 'null'] } as const;
export const nullableObject = { type: ['object', 'null'], additionalProperties: true } as const;
