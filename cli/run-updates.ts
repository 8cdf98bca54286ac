import { endsRun, type Errand, type ErrandEvent, type Run, type RunStatus } from './api.js';

/** The data of an event of type `T`, as the API documents it. */
type EventData<T extends ErrandEvent['type']> = Extract<ErrandEvent, { type: T }>['data'];

/** A step as the `run.step` event carries it: the steps list's item plus the run's cost after it. */
export type StreamedStep = EventData<'run.step'>;

/** What a progress display needs of `run.needs_human`: the question the run waits on. */
export type HumanRequest = Pick<EventData<'run.needs_human'>, 'run_id' | 'request_id' | 'kind' | 'question' | 'expires_at' | 'live_url'>;

/** What a progress display needs of `run.human_answered`. */
export type HumanAnswer = Pick<EventData<'run.human_answered'>, 'request_id' | 'answer' | 'approved' | 'answered_via'>;

/** What happened to a run, as a progress display shows it. */
export type RunUpdate =
  | { kind: 'status'; from: RunStatus | null; to: RunStatus; description: string; at: string }
  | { kind: 'step'; step: StreamedStep; at: string }
  | { kind: 'end'; envelope: Run }
  /** The run's live view, once it runs (docs/api.md, Live view). */
  | { kind: 'live'; url: string }
  /** The agent asked a person (request_human) and waits: the question, how long, and where to see the browser. */
  | { kind: 'needs_human'; request: HumanRequest; at: string }
  /** A person answered, and the agent goes on. */
  | { kind: 'human_answered'; answer: HumanAnswer; at: string };

export interface FollowOptions {
  signal?: AbortSignal;
  /** Told when the connection drops and when it is back, for a status display. */
  onConnection?: (state: 'connected' | 'reconnecting') => void;
}

/**
 * Follows a run through its event stream (resumed after cuts and daemon restarts, by the SDK): every status change,
 * every step once, and finally its envelope. Returns after the envelope. Event types it does not know are skipped.
 */
export async function* followRun(api: Errand, runId: string, options: FollowOptions = {}): AsyncGenerator<RunUpdate> {
  const steps = new Set<string>();
  let liveShown = false;
  const live = async (): Promise<RunUpdate | null> => {
    if (liveShown) return null;
    const url = (await api.runs.get(runId, { signal: options.signal })).live_url;
    liveShown = url !== null;
    return url === null ? null : { kind: 'live', url };
  };
  const already = await live();
  if (already !== null) yield already;
  for await (const event of api.runs.events(runId, { signal: options.signal, onConnection: options.onConnection })) {
    if (endsRun(event)) {
      // The envelope as GET /v1/runs/{id} answers it: the event says its mode beside it.
      yield { kind: 'end', envelope: { ...event.data, livemode: event.livemode } };
      return;
    }
    switch (event.type) {
      case 'run.status': {
        const d = event.data;
        yield { kind: 'status', from: d.from, to: d.to, description: d.description, at: event.created_at };
        if (d.to === 'running') {
          const started = await live();
          if (started !== null) yield started;
        }
        break;
      }
      case 'run.needs_human':
        yield { kind: 'needs_human', request: event.data, at: event.created_at };
        break;
      case 'run.human_answered':
        yield { kind: 'human_answered', answer: event.data, at: event.created_at };
        break;
      case 'run.step':
        if (steps.has(event.data.id)) break;
        steps.add(event.data.id);
        yield { kind: 'step', step: event.data, at: event.created_at };
        break;
      default:
        // Another type of the run's: nothing a progress display shows.
        break;
    }
  }
  // The stream ended without an end event: a run that ended before the daemon logged envelopes.
  yield { kind: 'end', envelope: await api.runs.get(runId, { signal: options.signal }) };
}
