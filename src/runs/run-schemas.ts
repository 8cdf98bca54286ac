import { runFilesSchema } from '../run-files/run-file-schemas.js';
import type { Validated } from '../http-schemas/validated.js';
import { idParam, idQueryParam, listQuery, listResponse, nullableObject, nullableString, timestamp } from '../http-schemas/common.js';
import { replay } from '../jobs/job-schemas.js';
import { modelAliasSchema } from '../vocabulary/models.js';
import { CONFIDENCES, FAILURE_CODE_NAMES, FAILURE_REASONS } from '../vocabulary/run-outcomes.js';
import { RUN_STATUSES } from '../vocabulary/run-status.js';
import { waitingForSchema } from './waiting-for.js';
import { runOptionMembers } from './run-options.js';
import { actionSpaceSchema } from '../vocabulary/action-spaces.js';

/** A run of a prompt: the prompt, its model and project, and the options every run takes (run-options.ts). */
export const createRunBody = {
  type: 'object',
  required: ['prompt'],
  additionalProperties: false,
  properties: {
    prompt: { type: 'string', minLength: 1, maxLength: 100_000 },
    model: modelAliasSchema,
    project_id: { type: 'string', minLength: 1, maxLength: 128 },
    ...runOptionMembers,
  },
} as const;

/** A run of a job: the options every run takes, and whether it replays the job's recipe. */
export const createJobRunBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...runOptionMembers,
    replay: { ...replay, description: "auto: replay the job's recipe (the agent takes over where the page changed); off: the agent runs every step. Default: the job's replay." },
  },
} as const;

const money = { type: 'object', required: ['low', 'high'], properties: { low: { type: 'number' }, high: { type: 'number' } } } as const;
const creditRange = { type: 'object', required: ['low', 'high'], properties: { low: { type: 'integer' }, high: { type: 'integer' } } } as const;

export const billingHintSchema = {
  type: 'object',
  required: ['model', 'credit_usd_rate', 'estimated_cost_usd', 'estimated_credits', 'monthly_cap_usd', 'note'],
  properties: {
    model: modelAliasSchema,
    credit_usd_rate: { type: 'number' },
    estimated_cost_usd: money,
    estimated_credits: creditRange,
    monthly_cap_usd: { type: ['number', 'null'] },
    note: { type: 'string' },
  },
} as const;

const runWarnings = {
  type: 'array',
  description: 'What the caller should know about a run it may start: a reason it will fail at once as things stand, or an estimate above what is left under a cap.',
  items: {
    type: 'object',
    required: ['code', 'message', 'param'],
    properties: {
      code: { type: 'string', enum: ['no_model_provider', 'connection_unusable', 'estimate_exceeds_cap'] },
      message: { type: 'string' },
      param: nullableString,
    },
  },
} as const;

export const runAcceptedSchema = {
  type: 'object',
  required: ['task_id', 'status', 'poll_url', 'billing', 'warnings'],
  properties: {
    task_id: { type: 'string' },
    status: { type: 'string', enum: ['queued', 'running', 'succeeded', 'failed', 'cancelled'] },
    poll_url: { type: 'string', format: 'uri' },
    billing: billingHintSchema,
    warnings: runWarnings,
  },
} as const;

export const runCheckSchema = {
  type: 'object',
  required: ['object', 'replay_of', 'billing', 'warnings'],
  properties: {
    object: { type: 'string', const: 'run_check' },
    replay_of: { ...nullableString, description: 'The run its idempotency_key would answer again, or null when a new run would be created.' },
    billing: billingHintSchema,
    warnings: runWarnings,
  },
} as const;

export const runStatus = { type: 'string', enum: RUN_STATUSES } as const;

export const envelopeSchema = {
  type: 'object',
  required: [
    'task_id', 'object', 'status', 'result', 'confidence', 'evidence', 'failure_reason', 'failure_code', 'failure_detail', 'warnings', 'usage', 'max_cost_usd',
    'created_at', 'started_at', 'finished_at', 'job_id', 'project_id', 'name', 'model', 'attempt', 'progress', 'waiting_for',
    'live_url', 'files', 'mode', 'sandbox', 'action_space',
  ],
  properties: {
    task_id: { type: 'string' },
    object: { type: 'string', const: 'run' },
    status: runStatus,
    result: nullableObject,
    confidence: { type: ['string', 'null'], enum: [...CONFIDENCES, null] },
    // A type list rather than anyOf: the response serializer then needs no schema check per response.
    evidence: {
      type: ['object', 'null'],
      required: ['screenshot_url', 'matched_text', 'checked_at', 'recording_url', 'trace_url'],
      properties: {
        screenshot_url: nullableString,
        matched_text: nullableString,
        checked_at: timestamp,
        recording_url: { ...nullableString, description: 'Signed link to a WebM video of the browser during the run, valid 7 days or until retention removes it; null when the run was not recorded (docs/api.md, Recordings).' },
        trace_url: { ...nullableString, description: 'Signed link to the Playwright trace of the run (zip: actions, DOM snapshots, network, console); null when the run was not recorded.' },
      },
    },
    failure_reason: { type: ['string', 'null'], enum: [...FAILURE_REASONS, null] },
    failure_code: {
      type: ['string', 'null'],
      enum: [...FAILURE_CODE_NAMES, null],
      description:
        "A failed run's finer reason where the engine has one, beside failure_reason (which stays one of the spec's six): budget_exceeded (failure_reason timeout) when its max_cost_usd stopped it. More codes may be added: treat an unknown one as its failure_reason.",
    },
    failure_detail: nullableString,
    warnings: { type: 'array', items: { type: 'string' } },
    usage: {
      type: 'object',
      required: ['duration_ms', 'input_tokens', 'output_tokens', 'cost_usd'],
      properties: {
        duration_ms: { type: ['integer', 'null'] },
        input_tokens: { type: 'integer' },
        output_tokens: { type: 'integer' },
        cost_usd: { type: 'number' },
      },
    },
    max_cost_usd: { type: ['number', 'null'], description: 'The most the run may cost in USD (its own, else its job\'s, else its API key\'s default); null: no limit of its own.' },
    created_at: timestamp,
    started_at: { type: ['string', 'null'], format: 'date-time' },
    finished_at: { type: ['string', 'null'], format: 'date-time' },
    job_id: nullableString,
    project_id: { type: 'string' },
    name: nullableString,
    model: modelAliasSchema,
    attempt: { type: 'integer' },
    progress: {
      type: 'object',
      required: ['steps', 'last_action'],
      properties: { steps: { type: 'integer' }, last_action: nullableString },
    },
    waiting_for: waitingForSchema,
    live_url: {
      ...nullableString,
      description: 'While the run is running, in GET /v1/runs/{id} only: a signed link to its live view, valid 30 minutes, for this run of this organisation (docs/api.md, Live view). Null otherwise.',
    },
    files: runFilesSchema,
    mode: {
      type: 'string',
      enum: ['agent', 'replay', 'replay_then_agent'],
      description: "How the run ran: the agent (every run that did not replay, and a run still queued), a replay of its job's recipe with no model call, or a replay the agent took over where the page changed (docs/api.md, Replay).",
    },
    sandbox: {
      type: 'object',
      required: ['label', 'host'],
      description: 'Where the run runs (issue 26; docs/api.md, Sandbox hosts).',
      properties: {
        label: { ...nullableString, description: 'The sandbox host label the run asked for (its own, else its job\'s); null: any host.' },
        host: { ...nullableString, description: 'The sandbox host (sandbox.hosts) its latest attempt was placed on; null before it is placed, and without sandbox.hosts.' },
      },
    },
    action_space: { ...actionSpaceSchema, description: "How the run's agent works a page: dom (the browser tool) or computer (the model's own computer-use tool); docs/api.md, Action spaces." },
  },
} as const;

/** W3C Trace Context: the caller's span, which the run's trace joins (docs/api.md, Traces). */
const traceparentHeader = {
  type: 'object',
  properties: {
    traceparent: {
      type: 'string',
      maxLength: 256,
      description:
        "W3C traceparent of the caller's span: the run's trace (with OpenTelemetry tracing configured) is its child, and the run's webhooks carry the run's span as their traceparent. An invalid one is ignored.",
    },
  },
} as const;

export const runRouteSchemas = {
  create: { headers: traceparentHeader, body: createRunBody, response: { 202: runAcceptedSchema } },
  check: { body: createRunBody, response: { 200: runCheckSchema } },
  createForJob: { headers: traceparentHeader, params: idParam('job'), body: createJobRunBody, response: { 202: runAcceptedSchema } },
  checkForJob: { params: idParam('job'), body: createJobRunBody, response: { 200: runCheckSchema } },
  list: {
    querystring: listQuery('run', { job_id: idQueryParam('job', 'Only runs of this job.') }),
    response: { 200: listResponse(envelopeSchema) },
  },
  get: { params: idParam('run'), response: { 200: envelopeSchema } },
  cancel: { params: idParam('run'), response: { 200: envelopeSchema } },
  rerun: { params: idParam('run'), response: { 202: runAcceptedSchema } },
} as const;

export type CreateRunBody = Validated<typeof createRunBody>;
export type CreateJobRunBody = Validated<typeof createJobRunBody>;
export type RunListQuery = Validated<typeof runRouteSchemas.list.querystring>;
