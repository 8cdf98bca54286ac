import type { Validated } from '../http-schemas/validated.js';
import { deletedResponse, idParam, idQueryParam, listQuery, listResponse, nullableObject, nullableString, timestamp } from '../http-schemas/common.js';
import { modelAliasSchema } from '../vocabulary/models.js';
import { actionSpaceSchema } from '../vocabulary/action-spaces.js';
import { answeredScheduleSchema, nullableScheduleSchema } from '../schedules/schedule-schema.js';
import { connectionNames, humanEmail, humanTimeoutS, maxCostUsd, profileMode, profileName, proxyName, recording, requireApproval, sandboxLabel, saveProfile, timeoutS } from '../runs/run-options.js';

export const replay = {
  type: 'string',
  enum: ['auto', 'off'],
  description:
    "auto: a run replays the job's recipe (recorded from an earlier run that succeeded) without the model, and the agent takes over where the page changed; off: the agent runs every step. A job's default is off (docs/api.md, Replay).",
} as const;

export const jobSchema = {
  type: 'object',
  required: ['id', 'object', 'project_id', 'name', 'description', 'prompt', 'model', 'input_schema', 'output_schema', 'connections', 'timeout_s', 'max_cost_usd', 'human_timeout_s', 'human_email', 'require_approval', 'schedule', 'recording', 'proxy', 'replay', 'sandbox_label', 'profile', 'profile_mode', 'save_profile', 'action_space', 'created_at', 'updated_at'],
  properties: {
    id: { type: 'string' },
    object: { type: 'string', const: 'job' },
    project_id: { type: 'string' },
    name: { type: 'string' },
    description: nullableString,
    prompt: { type: 'string' },
    model: modelAliasSchema,
    input_schema: nullableObject,
    output_schema: nullableObject,
    connections: { type: 'array', items: { type: 'string' } },
    timeout_s: { type: ['integer', 'null'] },
    max_cost_usd: { type: ['number', 'null'], description: "The most each of its runs may cost in USD, unless a run gives its own; null: the API key's default, if any." },
    human_timeout_s: { type: ['integer', 'null'] },
    human_email: nullableString,
    require_approval: { type: 'boolean' },
    schedule: answeredScheduleSchema,
    recording: { type: 'boolean', description: 'Whether its runs record the browser unless a run says otherwise.' },
    proxy: { ...nullableString, description: 'The proxy connection its runs leave through unless they name their own.' },
    replay: { ...replay, description: "Whether its runs replay its recipe ('auto') or run the agent every step ('off', the default)." },
    sandbox_label: { ...nullableString, description: 'The sandbox host label its runs ask for unless they name their own; null: any host.' },
    profile: { ...nullableString, description: 'The profile (saved login) its runs start with unless they name their own; null: none.' },
    profile_mode: { ...profileMode, description: "Whether its runs write their profile back when they succeed (read_write, the default) or only load it (read), unless a run says otherwise." },
    save_profile: { ...nullableString, description: "The profile its runs save their browser's state to when they succeed, unless they name their own; null: none." },
    action_space: { ...actionSpaceSchema, description: "How its runs' agent works a page unless a run names its own: dom (the browser tool) or computer (the model's own computer-use tool)." },
    created_at: timestamp,
    updated_at: timestamp,
  },
} as const;

const name = { type: 'string', minLength: 1, maxLength: 200 } as const;
const description = { type: ['string', 'null'], maxLength: 10_000 } as const;
const prompt = { type: 'string', minLength: 1, maxLength: 100_000 } as const;
const schemaMember = { type: ['object', 'null'], additionalProperties: true } as const;

const jobFields = {
  name,
  description,
  prompt,
  model: modelAliasSchema,
  input_schema: schemaMember,
  output_schema: schemaMember,
  connections: { anyOf: [connectionNames, { type: 'null' }] },
  timeout_s: { anyOf: [timeoutS, { type: 'null' }] },
  max_cost_usd: { anyOf: [maxCostUsd, { type: 'null' }] },
  human_timeout_s: { anyOf: [humanTimeoutS, { type: 'null' }] },
  human_email: { anyOf: [humanEmail, { type: 'null' }] },
  require_approval: requireApproval,
  schedule: nullableScheduleSchema,
  recording,
  proxy: { anyOf: [proxyName, { type: 'null' }] },
  replay,
  sandbox_label: { anyOf: [sandboxLabel, { type: 'null' }] },
  profile: { anyOf: [profileName, { type: 'null' }] },
  profile_mode: profileMode,
  save_profile: { anyOf: [saveProfile, { type: 'null' }] },
  action_space: actionSpaceSchema,
} as const;

export const createJobBody = {
  type: 'object',
  required: ['project_id', 'name', 'prompt'],
  additionalProperties: false,
  properties: { project_id: { type: 'string', minLength: 1, maxLength: 128 }, ...jobFields },
} as const;

export const updateJobBody = {
  type: 'object',
  additionalProperties: false,
  properties: jobFields,
} as const;

export const jobRouteSchemas = {
  list: {
    querystring: listQuery('job', { project_id: idQueryParam('proj', 'Only jobs of this project.') }),
    response: { 200: listResponse(jobSchema) },
  },
  create: { body: createJobBody, response: { 201: jobSchema } },
  get: { params: idParam('job'), response: { 200: jobSchema } },
  update: { params: idParam('job'), body: updateJobBody, response: { 200: jobSchema } },
  delete: { params: idParam('job'), response: { 200: deletedResponse('job') } },
} as const;

export type CreateJobBody = Validated<typeof createJobBody>;
export type UpdateJobBody = Validated<typeof updateJobBody>;
export type JobListQuery = Validated<typeof jobRouteSchemas.list.querystring>;
