import { nullableString, timestamp } from '../http-schemas/common.js';
import { HUMAN_KINDS, WAITPOINT_KINDS, WAITPOINT_TIMERS, type HumanKind, type WaitpointKind, type WaitpointTimer } from '../vocabulary/waits.js';

const nullableTimestamp = { ...timestamp, type: ['string', 'null'] } as const;

/** `waiting_for` of the envelope: what a running run waits for, or null (docs/api.md, "What a run waits for"). */
export const waitingForSchema = {
  type: ['object', 'null'],
  required: ['waitpoint_id', 'on', 'timer', 'since', 'expires_at', 'request_id', 'kind', 'question', 'asked_at', 'asked_again_of', 'by', 'live_url'],
  description:
    'What the running run waits for: a person the agent asked through request_human (`on: person`), a person holding its browser ' +
    '(`takeover`), or an email at its address (`email`); the oldest when it waits for more than one. Null while it waits for nothing.',
  properties: {
    waitpoint_id: { type: 'string', description: 'The wait (`wp_` prefix).' },
    on: { type: 'string', enum: WAITPOINT_KINDS },
    timer: { type: 'string', enum: WAITPOINT_TIMERS, description: "Whether the run's timeout_s runs meanwhile (`runs`) or stops (`stopped`: a person's wait has human_timeout_s)." },
    since: timestamp,
    expires_at: { ...nullableTimestamp, description: 'When the wait ends if nothing came: a person who does not answer fails the run; control not handed back is taken back; no email is an empty answer.' },
    request_id: { ...nullableString, description: 'A person\'s wait: the request (`hr_` prefix); POST /v1/runs/{id}/human names it, so that the answer goes to this question only.' },
    kind: { type: ['string', 'null'], enum: [...HUMAN_KINDS, null], description: "A person's wait: what the agent asked for." },
    question: nullableString,
    asked_at: nullableTimestamp,
    asked_again_of: { ...nullableString, description: "A person's wait: the request of an earlier attempt that this one asks again, because that attempt ended before anybody answered." },
    by: { ...nullableString, description: 'A takeover: who holds the browser (`live link`, or an API key).' },
    live_url: { ...nullableString, description: "The run's live view, where a person can see the browser and take over; null when none can be offered." },
  },
} as const;

/** A person's request as `waiting_for` shows it. */
export interface PersonWait {
  request_id: string;
  kind: HumanKind;
  question: string;
  asked_at: string;
  asked_again_of: string | null;
}

/** What `runs.waiting_for` holds (JSON): the oldest open waitpoint, without the live link, which is made when read. */
export interface StoredWaitingFor extends Partial<PersonWait> {
  waitpoint_id: string;
  on: WaitpointKind;
  timer: WaitpointTimer;
  since: string;
  expires_at: string | null;
  by?: string;
}

export interface WaitingFor {
  waitpoint_id: string;
  on: WaitpointKind;
  timer: WaitpointTimer;
  since: string;
  expires_at: string | null;
  request_id: string | null;
  kind: HumanKind | null;
  question: string | null;
  asked_at: string | null;
  asked_again_of: string | null;
  by: string | null;
  live_url: string | null;
}

/** A run's live view for a person (the live part's `liveUrlOf`); null when none can be offered. */
export type LiveUrlOf = (orgId: string, runId: string) => string | null;

/** What a run's `waiting_for` column holds, as the envelope shows it. */
export function waitingForOf(column: string | null, orgId: string, runId: string, liveUrlOf: LiveUrlOf): WaitingFor | null {
  if (column === null) return null;
  const stored = JSON.parse(column) as StoredWaitingFor;
  return {
    waitpoint_id: stored.waitpoint_id,
    on: stored.on,
    timer: stored.timer,
    since: stored.since,
    expires_at: stored.expires_at,
    request_id: stored.request_id ?? null,
    kind: stored.kind ?? null,
    question: stored.question ?? null,
    asked_at: stored.asked_at ?? null,
    asked_again_of: stored.asked_again_of ?? null,
    by: stored.by ?? null,
    live_url: liveUrlOf(orgId, runId),
  };
}
