import type { Validated } from '../http-schemas/validated.js';
import { idParam, nullableString, timestamp } from '../http-schemas/common.js';
import { envelopeSchema } from '../runs/run-schemas.js';
import { ANSWER_CHANNELS, HUMAN_KINDS } from '../vocabulary/waits.js';
import { WHEN_MISSING } from '../http-schemas/when-missing.js';

/**
 * POST /v1/runs/{id}/human: `request_id` names the question answered, so that an answer (or a retry of it) never
 * answers a later one; kind answer needs `answer`; approve needs `approved`; takeover needs nothing.
 */
export const humanAnswerBody = {
  type: 'object',
  additionalProperties: false,
  required: ['request_id'],
  properties: {
    request_id: {
      type: 'string',
      minLength: 1,
      maxLength: 64,
      description:
        "The question answered: the run's waiting_for.request_id as it was shown. An answer to another question than the one the run waits for is refused (409 request_mismatch), never applied to it.",
      [WHEN_MISSING]: "the id of the question you answer, the run's waiting_for.request_id (GET /v1/runs/{id}); an answer is applied only to the question it names",
    },
    answer: { type: 'string', minLength: 1, maxLength: 10_000, description: 'kind answer: the reply the agent gets.' },
    approved: { type: 'boolean', description: 'kind approve: true lets the agent go ahead, false tells it not to.' },
    note: { type: 'string', maxLength: 10_000, description: 'What the person did or wants the agent to know (for a takeover: what was done in the browser).' },
  },
} as const;

export const humanRouteSchemas = {
  answer: { params: idParam('run'), body: humanAnswerBody, response: { 200: envelopeSchema } },
} as const;

/** The data of run.needs_human. */
export const needsHumanData = {
  type: 'object',
  required: ['run_id', 'waitpoint_id', 'request_id', 'kind', 'question', 'asked_at', 'asked_again_of', 'expires_at', 'live_url', 'answer_url'],
  properties: {
    run_id: { type: 'string' },
    waitpoint_id: { type: 'string', description: "The run's wait for the answer (`wp_` prefix), as waiting_for.waitpoint_id names it." },
    request_id: { type: 'string' },
    kind: { type: 'string', enum: HUMAN_KINDS },
    question: { type: 'string' },
    asked_at: timestamp,
    asked_again_of: { ...nullableString, description: 'The request of an earlier attempt this one asks again, because that attempt ended before anybody answered.' },
    expires_at: timestamp,
    live_url: nullableString,
    answer_url: { type: 'string', description: 'POST /v1/runs/{id}/human of this run.' },
  },
} as const;

/** The data of run.human_answered. */
export const humanAnsweredData = {
  type: 'object',
  required: ['run_id', 'request_id', 'kind', 'answer', 'approved', 'note', 'answered_by', 'answered_via', 'answered_at'],
  properties: {
    run_id: { type: 'string' },
    request_id: { type: 'string' },
    kind: { type: 'string', enum: HUMAN_KINDS },
    answer: nullableString,
    approved: { type: ['boolean', 'null'] },
    note: nullableString,
    answered_by: { type: 'string', description: 'Who answered: an API key (`key <id>`), a live link, or an email address.' },
    answered_via: { type: 'string', enum: ANSWER_CHANNELS },
    answered_at: timestamp,
  },
} as const;

export type HumanAnswerBody = Validated<typeof humanAnswerBody>;
