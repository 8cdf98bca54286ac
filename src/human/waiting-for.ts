import { nullableString, timestamp } from '../http-schemas/common.js';

/** What the agent may ask a person for (the request_human tool). */
export const HUMAN_KINDS = ['takeover', 'answer', 'approve'] as const;
/** What blocks the agent when it asks for a takeover; it decides the failure_reason when nobody comes. */
export const HUMAN_OBSTACLES = ['captcha', 'login', 'other'] as const;
/** Where an answer came from, as the agent and the events are told. */
export const ANSWER_CHANNELS = ['api', 'cli', 'mcp', 'email', 'live'] as const;

/** `waiting_for` of the envelope: what a running run waits for, or null (contracts.md, item 3). */
export const waitingForSchema = {
  type: ['object', 'null'],
  required: ['request_id', 'kind', 'question', 'asked_at', 'expires_at', 'live_url'],
  description: 'What the running run waits for: a person the agent asked through request_human. Null while it waits for nothing.',
  properties: {
    request_id: { type: 'string', description: 'The request (`hr_` prefix): POST /v1/runs/{id}/human names it, so that the answer goes to this question only.' },
    kind: { type: 'string', enum: HUMAN_KINDS },
    question: { type: 'string' },
    asked_at: timestamp,
    expires_at: { ...timestamp, description: 'When the run fails if nobody has answered (human_timeout_s after asked_at).' },
    live_url: { ...nullableString, description: "The run's live view, where a person can see the browser and take over; null when none can be offered." },
  },
} as const;

/** What `runs.waiting_for` holds (JSON): the open request, without the live link, which is made when read. */
export interface StoredWaitingFor {
  request_id: string;
  kind: (typeof HUMAN_KINDS)[number];
  question: string;
  asked_at: string;
  expires_at: string;
}

export interface WaitingFor extends StoredWaitingFor {
  live_url: string | null;
}

/** A run's live view for a person (the live part's `liveUrlOf`); null when none can be offered. */
export type LiveUrlOf = (orgId: string, runId: string) => string | null;

/** What a run's `waiting_for` column holds, as the envelope shows it. */
export function waitingForOf(column: string | null, orgId: string, runId: string, liveUrlOf: LiveUrlOf): WaitingFor | null {
  if (column === null) return null;
  const stored = JSON.parse(column) as StoredWaitingFor;
  return { ...stored, live_url: liveUrlOf(orgId, runId) };
}
