import { deletedResponse, idParam, listQuery, listResponse, nullableObject, nullableString, signedLinkQuery, timestamp } from '../http-schemas/common.js';
import type { Validated } from '../http-schemas/validated.js';
import { replay } from '../jobs/job-schemas.js';
import { runOptionMembers } from '../runs/run-options.js';
import { envelopeSchema } from '../runs/run-schemas.js';
import { CASE_STATUSES, EVAL_STATUSES } from '../vocabulary/evals.js';
import { modelAliasSchema } from '../vocabulary/models.js';
import { FAILURE_REASONS } from '../vocabulary/run-outcomes.js';
import { RUN_STATUSES } from '../vocabulary/run-status.js';
import { expectationSchema } from './matchers.js';

/** The most cases one eval runs, and one job keeps. */
export const MAX_CASES = 1000;

const caseName = {
  type: 'string',
  minLength: 1,
  maxLength: 200,
  description: 'What the case is called in results and comparisons; without one, a case is known by its inputs.',
} as const;
const caseInputs = { type: 'object', additionalProperties: true, description: "The run's inputs (the job's {{placeholders}})." } as const;

/** A case as a request gives it: inline in POST /v1/jobs/{id}/evals, or kept with POST /v1/jobs/{id}/eval_cases. */
export const evalCaseInput = {
  type: 'object',
  required: ['expect'],
  additionalProperties: false,
  properties: { name: caseName, inputs: caseInputs, expect: expectationSchema },
} as const;

export const evalCaseSchema = {
  type: 'object',
  required: ['id', 'object', 'job_id', 'name', 'inputs', 'expect', 'created_at'],
  properties: {
    id: { type: 'string' },
    object: { type: 'string', const: 'eval_case' },
    job_id: { type: 'string' },
    name: nullableString,
    inputs: { type: 'object', additionalProperties: true },
    expect: expectationSchema,
    created_at: timestamp,
  },
} as const;

/**
 * The run options every case's run takes (src/runs/run-options.ts), over the job's: all of a run's but its inputs
 * (each case's own) and its idempotency key (the eval's runs are made once each, in the unit of work that records
 * them). A run option added there is an eval's setting too.
 */
const { inputs: _inputs, idempotency_key: _idempotencyKey, ...evalRunOptions } = runOptionMembers;

export const evalSettingsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: evalRunOptions,
  description: "Run options every case's run takes instead of the job's (those of POST /v1/jobs/{id}/runs but inputs and idempotency_key).",
} as const;

export const createEvalBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    cases: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_CASES,
      items: evalCaseInput,
      description: "The cases to run (a CI's JSONL file); without them, the job's kept cases (GET /v1/jobs/{id}/eval_cases).",
    },
    replay: { ...replay, description: "auto: the runs replay the job's recipe; off: the agent runs every step. Default: the job's replay, and off with `prompt`." },
    model: { ...modelAliasSchema, description: "The model the runs use instead of the job's." },
    prompt: { type: 'string', minLength: 1, maxLength: 100_000, description: "A prompt the runs use instead of the job's (its {{placeholders}} filled from each case's inputs)." },
    settings: evalSettingsSchema,
    baseline_id: { type: 'string', minLength: 1, maxLength: 128, description: 'Another eval of the same job to compare with: what got better or worse.' },
    max_parallel: {
      type: 'integer',
      minimum: 1,
      maximum: 1000,
      description: "Most of the eval's runs queued or running at once; at most evals.max_parallel (its default), which bounds all of an organisation's evals together.",
    },
    idempotency_key: { type: 'string', minLength: 1, maxLength: 255, description: 'A repeat within 24 h answers the first eval (202) instead of starting another.' },
  },
} as const;

const difference = {
  type: 'object',
  required: ['path', 'expected', 'got'],
  properties: {
    path: { type: 'string', description: '`run` (how the run ended), `result`, or a member of it (`result.price`).' },
    expected: { type: 'string', description: 'What a good run has there, in words.' },
    got: { type: 'string', description: 'What this run has there: JSON, shortened past 200 characters, or `(missing)`.' },
  },
} as const;

const usage = {
  type: 'object',
  required: ['duration_ms', 'input_tokens', 'output_tokens', 'cost_usd'],
  properties: {
    duration_ms: { type: ['integer', 'null'] },
    input_tokens: { type: 'integer' },
    output_tokens: { type: 'integer' },
    cost_usd: { type: 'number' },
  },
} as const;

export const caseResultSchema = {
  type: 'object',
  required: [
    'position', 'label', 'name', 'case_id', 'inputs', 'expect', 'status', 'differences', 'error', 'run_id', 'run_status', 'result',
    'failure_reason', 'failure_detail', 'mode', 'usage', 'started_at', 'ended_at',
  ],
  properties: {
    position: { type: 'integer', description: "The case's place in the eval, from 0." },
    label: { type: 'string', description: 'Its name, or its inputs as JSON when it has none.' },
    name: nullableString,
    case_id: { ...nullableString, description: 'The kept case it was copied from, or null for an inline case.' },
    inputs: { type: 'object', additionalProperties: true },
    expect: expectationSchema,
    status: {
      type: 'string',
      enum: CASE_STATUSES,
      description: 'pending (no run yet), running, passed, failed (the run differs: `differences`), error (no run could be made: `error`), skipped (the eval was cancelled first).',
    },
    differences: { type: 'array', items: difference, description: "Where the run differs from a good one; empty unless `failed`." },
    error: { ...nullableString, description: 'Why no run was made for the case (the refusal, with its code).' },
    run_id: nullableString,
    run_status: { type: ['string', 'null'], enum: [...RUN_STATUSES, null] },
    result: nullableObject,
    failure_reason: { type: ['string', 'null'], enum: [...FAILURE_REASONS, null] },
    failure_detail: nullableString,
    mode: { type: ['string', 'null'], enum: [...envelopeSchema.properties.mode.enum, null], description: "How the run ran (the envelope's mode), once it ended." },
    usage,
    started_at: { type: ['string', 'null'], format: 'date-time' },
    ended_at: { type: ['string', 'null'], format: 'date-time' },
  },
} as const;

const totals = {
  type: 'object',
  required: ['cases', 'passed', 'failed', 'errors', 'skipped', 'pending', 'running', 'pass_rate', 'duration_ms', 'input_tokens', 'output_tokens', 'cost_usd'],
  properties: {
    cases: { type: 'integer' },
    passed: { type: 'integer' },
    failed: { type: 'integer' },
    errors: { type: 'integer' },
    skipped: { type: 'integer' },
    pending: { type: 'integer' },
    running: { type: 'integer' },
    pass_rate: { type: 'number', description: 'passed / cases, from 0 to 1 (4 decimals).' },
    duration_ms: { type: 'integer', description: "The cases' runs' durations, added up." },
    input_tokens: { type: 'integer' },
    output_tokens: { type: 'integer' },
    cost_usd: { type: 'number' },
  },
} as const;

const caseChange = {
  type: 'object',
  required: ['label', 'baseline_status', 'status', 'change', 'cost_usd_change', 'duration_ms_change'],
  properties: {
    label: { type: 'string' },
    baseline_status: { type: ['string', 'null'], enum: [...CASE_STATUSES, null], description: 'Null when the baseline had no such case.' },
    status: { type: 'string', enum: CASE_STATUSES },
    change: { type: 'string', enum: ['newly_passing', 'newly_failing', 'unchanged', 'added'] },
    cost_usd_change: { type: ['number', 'null'] },
    duration_ms_change: { type: ['integer', 'null'] },
  },
} as const;

const comparison = {
  type: ['object', 'null'],
  required: ['baseline_id', 'pass_rate_change', 'cost_usd_change', 'duration_ms_change', 'newly_passing', 'newly_failing', 'unchanged', 'removed', 'cases'],
  description: 'Beside the baseline eval: what got better or worse. Cases are the same case when they have the same name, or, without names, the same inputs. Null without a baseline, or once retention purged it.',
  properties: {
    baseline_id: { type: 'string' },
    pass_rate_change: { type: 'number' },
    cost_usd_change: { type: 'number' },
    duration_ms_change: { type: 'integer' },
    newly_passing: { type: 'array', items: { type: 'string' }, description: 'Labels of cases that pass now and did not.' },
    newly_failing: { type: 'array', items: { type: 'string' }, description: 'Labels of cases that passed and do not now.' },
    unchanged: { type: 'integer', description: 'Cases that pass, or do not, in both.' },
    removed: { type: 'array', items: { type: 'string' }, description: 'Labels of the baseline\'s cases this eval does not have.' },
    cases: { type: 'array', items: caseChange },
  },
} as const;

const summaryProperties = {
  id: { type: 'string' },
  object: { type: 'string', const: 'eval' },
  job_id: { type: 'string' },
  status: { type: 'string', enum: EVAL_STATUSES },
  replay: { type: 'string', enum: replay.enum },
  model: modelAliasSchema,
  prompt: { ...nullableString, description: "The prompt its runs use instead of the job's; null: the job's." },
  settings: { type: 'object', additionalProperties: true },
  baseline_id: nullableString,
  max_parallel: { type: 'integer' },
  totals,
  created_at: timestamp,
  started_at: { type: ['string', 'null'], format: 'date-time' },
  finished_at: { type: ['string', 'null'], format: 'date-time' },
} as const;
const summaryRequired = ['id', 'object', 'job_id', 'status', 'replay', 'model', 'prompt', 'settings', 'baseline_id', 'max_parallel', 'totals', 'created_at', 'started_at', 'finished_at'] as const;

/** An eval without its cases: what a list of a job's evals and the `eval.*` events carry. */
export const evalSummarySchema = { type: 'object', required: summaryRequired, properties: summaryProperties } as const;

export const evalSchema = {
  type: 'object',
  required: [...summaryRequired, 'cases', 'comparison', 'report_url'],
  properties: {
    ...summaryProperties,
    cases: { type: 'array', items: caseResultSchema },
    comparison,
    report_url: { type: 'string', description: 'Signed link to the eval\'s report, an HTML page (valid 7 days from when the eval was read; no API key).' },
  },
} as const;

export const evalCaseRouteSchemas = {
  list: { params: idParam('job'), querystring: listQuery('evc'), response: { 200: listResponse(evalCaseSchema) } },
  create: { params: idParam('job'), body: evalCaseInput, response: { 201: evalCaseSchema } },
  get: { params: idParam('evc'), response: { 200: evalCaseSchema } },
  delete: { params: idParam('evc'), response: { 200: deletedResponse('eval_case') } },
} as const;

export const evalRouteSchemas = {
  create: { params: idParam('job'), body: createEvalBody, response: { 202: evalSchema } },
  list: { params: idParam('job'), querystring: listQuery('eval'), response: { 200: listResponse(evalSummarySchema) } },
  get: { params: idParam('eval'), response: { 200: evalSchema } },
  cancel: { params: idParam('eval'), response: { 200: evalSchema } },
  /** `expires` and `sig` are optional so that a link without them is a 403 like any other bad signature (artifacts do the same). */
  report: {
    params: idParam('eval'),
    querystring: signedLinkQuery,
    response: {
      200: { description: "The eval's report: a self-contained HTML page (no script; inline styles and an SVG chart).", content: { 'text/html': { schema: { type: 'string' } } } },
      403: { $ref: 'ErrorResponse#' },
      404: { $ref: 'ErrorResponse#' },
      410: { $ref: 'ErrorResponse#' },
    },
  },
} as const;

export type EvalCaseInput = Validated<typeof evalCaseInput>;
export type CreateEvalBody = Validated<typeof createEvalBody>;
export type EvalSettings = Validated<typeof evalSettingsSchema>;
export type EvalListQuery = Validated<typeof evalRouteSchemas.list.querystring>;
export type EvalCaseListQuery = Validated<typeof evalCaseRouteSchemas.list.querystring>;

/** The records the schemas above describe, as the services build them. */
export type EvalCase = Validated<typeof evalCaseSchema>;
export type EvalSummary = Validated<typeof evalSummarySchema>;
export type Eval = Validated<typeof evalSchema>;
export type CaseResult = Validated<typeof caseResultSchema>;
export type EvalTotals = EvalSummary['totals'];
