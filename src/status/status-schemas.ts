import { timestamp } from '../http-schemas/common.js';

export const statusSchema = {
  type: 'object',
  required: ['object', 'version', 'started_at', 'model_provider', 'sandbox', 'spend', 'runs'],
  properties: {
    object: { type: 'string', const: 'status' },
    version: { type: 'string' },
    started_at: timestamp,
    model_provider: {
      type: 'object',
      required: ['name', 'usable'],
      properties: { name: { type: 'string' }, usable: { type: 'boolean', description: 'False when its API key or endpoint is not set: runs fail with auth_required.' } },
    },
    sandbox: {
      type: 'object',
      required: ['driver', 'warm_pool'],
      properties: {
        driver: { type: 'string', enum: ['local', 'docker'] },
        warm_pool: {
          type: ['object', 'null'],
          required: ['ready', 'size'],
          properties: { ready: { type: 'integer' }, size: { type: 'integer' } },
          description: 'Started docker containers waiting for runs (null for the local driver).',
        },
      },
    },
    spend: {
      type: 'object',
      required: ['today_usd', 'daily_cap_usd'],
      properties: { today_usd: { type: 'number' }, daily_cap_usd: { type: 'number' } },
      description: "The organisation's spend today (UTC) and its daily cap.",
    },
    runs: {
      type: 'object',
      required: ['active', 'max_pending'],
      properties: { active: { type: 'integer', description: 'Queued plus running runs of the organisation.' }, max_pending: { type: 'integer' } },
    },
  },
} as const;

export const statusRouteSchemas = { get: { response: { 200: statusSchema } } } as const;
