import type { Validated } from '../http-schemas/validated.js';
import { idParam, listResponse, nullableString, timestamp } from '../http-schemas/common.js';

export const skippedFiringSchema = {
  type: 'object',
  required: ['object', 'event_id', 'job_id', 'slot', 'code', 'message', 'param', 'created_at'],
  properties: {
    object: { type: 'string', const: 'skipped_firing' },
    event_id: { type: 'integer', description: 'Its id in the event log (schedule.skipped); the cursor of the list.' },
    job_id: { type: 'string' },
    slot: { ...timestamp, description: 'When the firing was scheduled for.' },
    code: { type: 'string', description: 'What refused the run, as the API would have answered: missing_input, daily_cap_reached, ...' },
    message: { type: 'string' },
    param: nullableString,
    created_at: timestamp,
  },
} as const;

export const skippedFiringRouteSchemas = {
  list: {
    params: idParam('job'),
    querystring: {
      type: 'object',
      additionalProperties: false,
      properties: {
        limit: { type: 'integer', minimum: 1, maximum: 200, default: 50, description: 'Page size, 1 to 200.' },
        cursor: { type: 'integer', minimum: 1, description: 'The next_cursor of the previous page (an event_id).' },
      },
    },
    response: { 200: listResponse(skippedFiringSchema) },
  },
} as const;

export type SkippedFiringListQuery = Validated<typeof skippedFiringRouteSchemas.list.querystring>;
