import { deletedResponse, idParam, listQuery, listResponse, nullableString, timestamp } from '../http-schemas/common.js';
import type { Validated } from '../http-schemas/validated.js';
import { PROFILE_NAME_PATTERN } from '../runs/run-options.js';

const name = { type: 'string', pattern: PROFILE_NAME_PATTERN, description: 'Letters, digits, ., _ and -, up to 64; unique in the organisation. Runs name it in `profile` and `save_profile`.' } as const;

/** How to tell a profile is still signed in; the API answers it as it was given. */
export const profileCheckSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['url'],
  properties: {
    url: { type: 'string', format: 'uri', pattern: '^https?://', maxLength: 2048, description: 'A page of the site that shows, only when signed in, the text or the role below.' },
    text: { type: 'string', minLength: 1, maxLength: 500, description: 'Text the page shows only when signed in (Sign out, the account name).' },
    role: { type: 'string', minLength: 1, maxLength: 64, description: 'Or: the ARIA role of an element shown only when signed in (link, button), with its `name`.' },
    name: { type: 'string', minLength: 1, maxLength: 500, description: "The accessible name of the element of `role`." },
  },
} as const;

const answeredCheck = {
  type: ['object', 'null'],
  required: ['url', 'text', 'role', 'name'],
  properties: { url: { type: 'string' }, text: nullableString, role: nullableString, name: nullableString },
  description: 'How a run or `errand profiles check` tells it is still signed in; null: nobody said (then it is never checked).',
} as const;

/**
 * A browser state as Playwright's `storageState()` writes it (the file `errand profiles import` reads): cookies, and
 * each origin's localStorage and IndexedDB. Members Playwright adds beside these are accepted and kept.
 */
export const storageStateSchema = {
  type: 'object',
  required: ['cookies', 'origins'],
  additionalProperties: true,
  properties: {
    cookies: {
      type: 'array',
      maxItems: 10_000,
      items: {
        type: 'object',
        required: ['name', 'value', 'domain', 'path', 'expires', 'httpOnly', 'secure', 'sameSite'],
        properties: {
          name: { type: 'string', maxLength: 4096 },
          value: { type: 'string', maxLength: 16_384 },
          domain: { type: 'string', minLength: 1, maxLength: 253 },
          path: { type: 'string', minLength: 1, maxLength: 4096 },
          expires: { type: 'number', description: 'Unix time in seconds; -1 for a session cookie.' },
          httpOnly: { type: 'boolean' },
          secure: { type: 'boolean' },
          sameSite: { type: 'string', enum: ['Strict', 'Lax', 'None'] },
        },
      },
    },
    origins: {
      type: 'array',
      maxItems: 1000,
      items: {
        type: 'object',
        required: ['origin', 'localStorage'],
        properties: {
          origin: { type: 'string', pattern: '^https?://', maxLength: 2048 },
          localStorage: {
            type: 'array',
            items: { type: 'object', required: ['name', 'value'], properties: { name: { type: 'string' }, value: { type: 'string' } } },
          },
          indexedDB: { type: 'array', description: "Playwright's serialized databases (storageState({ indexedDB: true }))." },
        },
      },
    },
  },
  description: "Write-only: a browser state as Playwright's storageState() writes it. Sealed under the master key; never answered.",
} as const;

export const profileSchema = {
  type: 'object',
  required: [
    'id',
    'object',
    'name',
    'has_state',
    'origins',
    'size_bytes',
    'saved_at',
    'saved_by_run_id',
    'saved_via',
    'last_used_at',
    'last_used_by_run_id',
    'check',
    'health',
    'health_detail',
    'checked_at',
    'expires_at',
    'created_at',
    'updated_at',
  ],
  properties: {
    id: { type: 'string' },
    object: { type: 'string', const: 'profile' },
    name: { type: 'string' },
    has_state: { type: 'boolean', description: 'Whether a state is saved. The state itself (cookies, storage) is never answered.' },
    origins: { type: 'array', items: { type: 'string' }, description: 'The sites the state holds: the origins of its storage and the domains of its cookies.' },
    size_bytes: { type: 'integer', description: 'The size of the saved state (profiles.max_state_kb bounds it).' },
    saved_at: { type: ['string', 'null'], format: 'date-time' },
    saved_by_run_id: { ...nullableString, description: 'The run whose browser the state was saved from (by the run, or from its live view); null for an import.' },
    saved_via: { type: ['string', 'null'], enum: ['run', 'live_view', 'import', null], description: 'run: a run that succeeded; live_view: a person, after signing in by hand; import: a Playwright storage-state file.' },
    last_used_at: { type: ['string', 'null'], format: 'date-time' },
    last_used_by_run_id: nullableString,
    check: answeredCheck,
    health: {
      type: 'string',
      enum: ['unknown', 'signed_in', 'signed_out', 'expired'],
      description: 'What the last check found (by a run, or `errand profiles check`): signed_in, signed_out; unknown before any; expired once expires_at has passed (its state is erased).',
    },
    health_detail: { ...nullableString, description: 'What the last check saw, in words.' },
    checked_at: { type: ['string', 'null'], format: 'date-time' },
    expires_at: { type: ['string', 'null'], format: 'date-time', description: 'When its state is erased; null: never.' },
    created_at: timestamp,
    updated_at: timestamp,
  },
} as const;

export const createProfileBody = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name,
    check: profileCheckSchema,
    expires_at: { type: 'string', format: 'date-time', description: 'When its state is erased; default never.' },
    state: { ...storageStateSchema, description: `${storageStateSchema.description} Leave it out for a profile a run or a person fills.` },
  },
} as const;

export const updateProfileBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    name,
    check: { anyOf: [profileCheckSchema, { type: 'null' }] },
    expires_at: { type: ['string', 'null'], format: 'date-time' },
    state: { ...storageStateSchema, description: `${storageStateSchema.description} Replaces the saved one.` },
  },
} as const;

export const profileUseSchema = {
  type: 'object',
  required: ['object', 'run_id', 'attempt', 'access', 'used_at', 'saved_at'],
  properties: {
    object: { type: 'string', const: 'profile_use' },
    run_id: { type: 'string' },
    attempt: { type: 'integer' },
    access: { type: 'string', enum: ['read', 'read_write'], description: 'What the attempt got: read_write when it was the one run that may write the profile back.' },
    used_at: timestamp,
    saved_at: { type: ['string', 'null'], format: 'date-time', description: 'When it wrote its state back; null when it did not.' },
  },
} as const;

export const profileRouteSchemas = {
  list: { querystring: listQuery('prf'), response: { 200: listResponse(profileSchema) } },
  create: { body: createProfileBody, response: { 201: profileSchema } },
  get: { params: idParam('prf'), response: { 200: profileSchema } },
  update: { params: idParam('prf'), body: updateProfileBody, response: { 200: profileSchema } },
  delete: { params: idParam('prf'), response: { 200: deletedResponse('profile') } },
  check: { params: idParam('prf'), response: { 200: profileSchema } },
  uses: { params: idParam('prf'), querystring: listQuery('run'), response: { 200: listResponse(profileUseSchema) } },
} as const;

export type CreateProfileBody = Validated<typeof createProfileBody>;
export type UpdateProfileBody = Validated<typeof updateProfileBody>;
export type ProfileCheckBody = Validated<typeof profileCheckSchema>;
export type ProfileUsesQuery = Validated<typeof profileRouteSchemas.uses.querystring>;
