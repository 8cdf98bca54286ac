import { idParam, nullableString, timestamp } from '../http-schemas/common.js';

export const stepSchema = {
  type: 'object',
  required: ['id', 'object', 'run_id', 'attempt', 'seq', 'kind', 'name', 'input', 'output', 'is_error', 'duration_ms', 'usage', 'screenshot_url', 'created_at'],
  properties: {
    id: { type: 'string' },
    object: { type: 'string', const: 'run_step' },
    run_id: { type: 'string' },
    attempt: { type: 'integer', description: 'Which attempt of the run made this step (a run is retried when the daemon died under it).' },
    seq: { type: 'integer', description: 'Order within the attempt, from 1.' },
    kind: { type: 'string', enum: ['model', 'tool', 'person'] },
    name: { type: 'string', description: 'The model id for a model call; the tool and action for a tool call (browser.navigate, run_code.python, finish).' },
    input: { description: 'What the step was given: the tool input, or a summary of the model request.' },
    output: { ...nullableString, description: 'What the step produced, truncated.' },
    is_error: { type: 'boolean' },
    duration_ms: { type: 'integer' },
    usage: {
      type: 'object',
      required: ['input_tokens', 'output_tokens', 'cost_usd'],
      properties: { input_tokens: { type: 'integer' }, output_tokens: { type: 'integer' }, cost_usd: { type: 'number' } },
    },
    screenshot_url: { ...nullableString, description: 'Signed link to the screenshot this step took, valid 7 days.' },
    created_at: timestamp,
  },
} as const;

export const stepRouteSchemas = {
  list: {
    params: idParam('run'),
    response: {
      200: {
        type: 'object',
        required: ['object', 'data', 'has_more', 'next_cursor'],
        properties: {
          object: { type: 'string', const: 'list' },
          data: { type: 'array', items: stepSchema },
          has_more: { type: 'boolean', description: 'Always false: every step of the run is in one page.' },
          next_cursor: { type: ['string', 'null'] },
        },
      },
    },
  },
} as const;
