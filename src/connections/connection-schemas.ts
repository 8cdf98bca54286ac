import type { Validated } from '../http-schemas/validated.js';
import { deletedResponse, idParam, listQuery, listResponse, nullableString, timestamp } from '../http-schemas/common.js';

/** A connection's name is also the prefix of its MCP tools' names (`<name>__<tool>`), which model APIs restrict. */
export const CONNECTION_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$';
export const ENV_VAR_NAME_PATTERN = '^[A-Za-z_][A-Za-z0-9_]{0,127}$';
/** Shorter secrets would mask ordinary words in what the model reads. */
export const SECRET_MIN_LENGTH = 6;
export const SECRET_MAX_LENGTH = 16_384;

export const connectionSchema = {
  type: 'object',
  required: [
    'id',
    'object',
    'name',
    'type',
    'project_id',
    'is_enabled',
    'has_secret',
    'env_var_name',
    'url',
    'transport',
    'headers',
    'provider',
    'auth_status',
    'auth_detail',
    'auth_checked_at',
    'expires_at',
    'created_at',
    'updated_at',
  ],
  properties: {
    id: { type: 'string' },
    object: { type: 'string', const: 'connection' },
    name: { type: 'string' },
    type: { type: 'string', enum: ['token', 'mcp', 'oauth', 'totp', 'proxy'] },
    project_id: { ...nullableString, description: 'The project whose runs use it; null for every run of the organisation.' },
    is_enabled: { type: 'boolean' },
    has_secret: { type: 'boolean', description: 'Whether a secret is stored. The secret itself is never returned.' },
    env_var_name: { ...nullableString, description: 'token and oauth: the environment variable runs get the secret in.' },
    url: { ...nullableString, description: 'mcp: the server. proxy: scheme://host:port, never with its credentials.' },
    transport: { type: ['string', 'null'], enum: ['http', 'sse', null] },
    headers: { type: ['object', 'null'], additionalProperties: { type: 'string' }, description: 'mcp: request headers as given, with ${SECRET} unexpanded.' },
    provider: { ...nullableString, description: 'oauth: the configured provider.' },
    auth_status: { type: 'string', enum: ['authenticated', 'pending', 'failed', 'expired'] },
    auth_detail: { ...nullableString, description: 'Why the status is what it is, in words.' },
    auth_checked_at: { type: ['string', 'null'], format: 'date-time' },
    expires_at: { type: ['string', 'null'], format: 'date-time', description: 'oauth: when the current access token expires (it is refreshed before).' },
    created_at: timestamp,
    updated_at: timestamp,
  },
} as const;

const name = { type: 'string', pattern: CONNECTION_NAME_PATTERN, description: 'Letters, digits, _ and -, up to 40; unique in its scope.' } as const;
const secret = {
  type: 'string',
  minLength: SECRET_MIN_LENGTH,
  maxLength: SECRET_MAX_LENGTH,
  description: 'Write-only. totp: the base32 seed, or an otpauth://totp/ URI with its digits, period and algorithm.',
} as const;
const envVarName = { type: 'string', pattern: ENV_VAR_NAME_PATTERN } as const;
const url = { type: 'string', minLength: 1, maxLength: 2048 } as const;
const transport = { type: 'string', enum: ['http', 'sse'] } as const;
const headers = {
  type: 'object',
  maxProperties: 50,
  propertyNames: { pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$" },
  additionalProperties: { type: 'string', maxLength: 8192 },
} as const;

export const createConnectionBody = {
  type: 'object',
  required: ['name', 'type'],
  additionalProperties: false,
  properties: {
    name,
    type: { type: 'string', enum: ['token', 'mcp', 'oauth', 'totp', 'proxy'] },
    secret,
    env_var_name: envVarName,
    url,
    transport,
    headers,
    project_id: { type: 'string', minLength: 1, maxLength: 128 },
    is_enabled: { type: 'boolean' },
  },
} as const;

export const updateConnectionBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    name,
    is_enabled: { type: 'boolean' },
    secret: { anyOf: [secret, { type: 'null' }] },
    env_var_name: { anyOf: [envVarName, { type: 'null' }] },
    url,
    transport,
    headers: { anyOf: [headers, { type: 'null' }] },
  },
} as const;

export const createLinkBody = {
  type: 'object',
  required: ['provider'],
  additionalProperties: false,
  properties: {
    provider: { type: 'string', minLength: 1, maxLength: 100 },
    name: { ...name, description: 'Default: the provider name.' },
    project_id: { type: 'string', minLength: 1, maxLength: 128 },
    env_var_name: { ...envVarName, description: 'Default: <PROVIDER>_ACCESS_TOKEN, or the preset\'s.' },
    redirect_url: { ...url, description: 'Where the browser goes once connected (with connection_id and status in the query).' },
  },
} as const;

export const connectionLinkSchema = {
  type: 'object',
  required: ['object', 'id', 'connection_id', 'url', 'expires_at'],
  properties: {
    object: { type: 'string', const: 'connection_link' },
    id: { type: 'string', description: 'Ask GET /v1/connections/links/{id} how the flow is going.' },
    connection_id: { type: 'string' },
    url: { type: 'string', description: 'Open once in a browser, within 15 minutes.' },
    expires_at: timestamp,
  },
} as const;

export const connectionLinkStatusSchema = {
  type: 'object',
  required: ['object', 'id', 'connection_id', 'status', 'detail', 'expires_at'],
  properties: {
    object: { type: 'string', const: 'connection_link' },
    id: { type: 'string' },
    connection_id: { type: 'string' },
    status: {
      type: 'string',
      enum: ['pending', 'opened', 'authenticated', 'failed', 'expired'],
      description:
        'pending: not opened yet; opened: someone is signing in; failed: see detail (a connection that was authenticated before keeps its tokens); expired: not opened, or not finished, in time.',
    },
    detail: nullableString,
    expires_at: { ...timestamp, description: 'Until when the link can be opened; once opened, until when the flow can finish.' },
  },
} as const;

export const connectionToolsSchema = {
  type: 'object',
  required: ['object', 'connection_id', 'auth_status', 'auth_detail', 'data'],
  properties: {
    object: { type: 'string', const: 'connection_tools' },
    connection_id: { type: 'string' },
    auth_status: { type: 'string', enum: ['authenticated', 'pending', 'failed', 'expired'], description: 'What connecting now showed; also recorded on the connection.' },
    auth_detail: nullableString,
    data: {
      type: 'array',
      description: 'The tools runs are offered, in the order the server listed them; none when the server could not be used.',
      items: {
        type: 'object',
        required: ['name', 'tool', 'title', 'description', 'input_schema'],
        properties: {
          name: { type: 'string', description: 'The name runs see: <connection>__<tool>.' },
          tool: { type: 'string', description: "The server's own name for it." },
          title: nullableString,
          description: nullableString,
          input_schema: { type: 'object', additionalProperties: true },
        },
      },
    },
  },
} as const;

export const connectionRouteSchemas = {
  list: { querystring: listQuery('conn'), response: { 200: listResponse(connectionSchema) } },
  create: { body: createConnectionBody, response: { 201: connectionSchema } },
  get: { params: idParam('conn'), response: { 200: connectionSchema } },
  update: { params: idParam('conn'), body: updateConnectionBody, response: { 200: connectionSchema } },
  delete: { params: idParam('conn'), response: { 200: deletedResponse('connection') } },
  check: { params: idParam('conn'), response: { 200: connectionSchema } },
  tools: { params: idParam('conn'), response: { 200: connectionToolsSchema } },
  link: { body: createLinkBody, response: { 201: connectionLinkSchema } },
  linkStatus: { params: idParam('clk'), response: { 200: connectionLinkStatusSchema } },
} as const;

export type CreateConnectionBody = Validated<typeof createConnectionBody>;
export type UpdateConnectionBody = Validated<typeof updateConnectionBody>;
export type CreateLinkBody = Validated<typeof createLinkBody>;
