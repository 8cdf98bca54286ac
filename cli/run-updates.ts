import type { ApiClient, RunEnvelope, RunStep } from './api-client.js';
import { followEvents, isEventOf, type FollowOptions } from './event-stream.js';
import { isRunEndEvent } from '../src/event-log/event-catalogue.js';
import type { RunStatus } from '../src/vocabulary/run-status.js';

/** A step as the `run.step` event carries it: the steps list's item plus the run's cost after it. */
export interface StreamedStep extends RunStep {
  run_cost_usd: number;
}

/** What happened to a run, as a progress display shows it. */
export type RunUpdate =
  | { kind: 'status'; from: RunStatus | null; to: RunStatus; description: string; at: string }
  | { kind: 'step'; step: StreamedStep; at: string }
  | { kind: 'end'; envelope: RunEnvelope }
  /** The run's live view, once it runs (docs/api.md, Live view). */
  | { kind: 'live'; url: string }
  /** The agent asked a person (request_human) and waits: the question, how long, and where to see the browser. */
  | { kind: 'needs_human'; request: HumanRequest; at: string }
  /** A person answered, and the agent goes on. */
  | { kind: 'human_answered'; answer: HumanAnswer; at: string };

/** What `run.needs_human` carries: the question the run waits on. */
export interface HumanRequest {
  run_id: string;
  request_id: string;
  kind: 'takeover' | 'answer' | 'approve';
  question: string;
  expires_at: string;
  live_url: string | null;
}

/** What `run.human_answered` carries. */
export interface HumanAnswer {
  request_id: string;
  answer: string | null;
  approved: boolean | null;
  answered_via: string;
}

/**
 * Follows a run through its event stream: every status change, every step once, and finally its envelope.
 * Returns after the envelope. Event types it does not know are skipped.
 */
export async function* followRun(api: ApiClient, runId: string, options: FollowOptions = {}): AsyncGenerator<RunUpdate> {
  const steps = new Set<string>();
  let liveShown = false;
  const live = async (): Promise<RunUpdate | null> => {
    if (liveShown) return null;
    const url = (await api.getRun(runId, options.signal)).live_url;
    liveShown = url !== null;
    return url === null ? null : { kind: 'live', url };
  };
  const already = await live();
  if (already !== null) yield already;
  for await (const event of followEvents(api, `/v1/runs/${encodeURIComponent(runId)}/events`, options)) {
    if (isRunEndEvent(event.type)) {
      yield { kind: 'end', envelope: event.data as RunEnvelope };
      return;
    }
    if (isEventOf(event, 'run.status')) {
      const d = event.data;
      yield { kind: 'status', from: d.from, to: d.to, description: d.description, at: event.created_at };
      if (d.to === 'running') {
        const started = await live();
        if (started !== null) yield started;
      }
    } else if (isEventOf(event, 'run.needs_human')) {
      yield { kind: 'needs_human', request: event.data, at: event.created_at };
    } else if (isEventOf(event, 'run.human_answered')) {
      yield { kind: 'human_answered', answer: event.data, at: event.created_at };
    } else if (isEventOf(event, 'run.step')) {
      const step: StreamedStep = event.data;
      if (steps.has(step.id)) continue;
      steps.add(step.id);
      yield { kind: 'step', step, at: event.created_at };
    }
  }
  // The stream ended without an end event: a run that ended before the daemon logged envelopes.
  yield { kind: 'end', envelope: await api.getRun(runId, options.signal) };
}
