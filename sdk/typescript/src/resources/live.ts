import type { RequestOptions } from '../core.js';
import { readSse, type SseMessage } from '../sse.js';
import type { BodyOf, LiveControl, LiveInput, LiveState, Profile, ResponseOf } from '../types.js';
import { Resource } from './resource.js';

/** A running run's live view and takeover (docs/api.md, Live view and takeover). */
export class Live extends Resource {
  state(runId: string, options?: RequestOptions): Promise<LiveState> {
    return this.call({ method: 'GET', path: '/v1/runs/{id}/live/state', pathParams: { id: runId }, options });
  }

  /** Takes control of the run's browser; the agent waits until it is released. */
  takeControl(runId: string, options?: RequestOptions): Promise<LiveControl> {
    return this.call({ method: 'POST', path: '/v1/runs/{id}/live/control', pathParams: { id: runId }, options });
  }

  releaseControl(runId: string, params: BodyOf<'/v1/runs/{id}/live/control/release', 'post'>, options?: RequestOptions): Promise<ResponseOf<'/v1/runs/{id}/live/control/release', 'post'>> {
    return this.call({ method: 'POST', path: '/v1/runs/{id}/live/control/release', pathParams: { id: runId }, body: params, idempotent: true, options });
  }

  /** One input (a click, keys, a scroll) while in control. */
  input(runId: string, params: LiveInput, options?: RequestOptions): Promise<void> {
    return this.call({ method: 'POST', path: '/v1/runs/{id}/live/input', pathParams: { id: runId }, body: params, options });
  }

  /**
   * "Save this login": while in control, the browser's state saved now as the profile `profile` (the run's profile or
   * save_profile, or a new name), after a person signed in by hand.
   */
  saveLogin(runId: string, params: BodyOf<'/v1/runs/{id}/live/login', 'post'>, options?: RequestOptions): Promise<Profile> {
    return this.call({ method: 'POST', path: '/v1/runs/{id}/live/login', pathParams: { id: runId }, body: params, options });
  }

  /** Revokes the run's live links. */
  revoke(runId: string, options?: RequestOptions): Promise<ResponseOf<'/v1/runs/{id}/live/revoke', 'post'>> {
    return this.call({ method: 'POST', path: '/v1/runs/{id}/live/revoke', pathParams: { id: runId }, idempotent: true, options });
  }

  /**
   * The screen as server-sent events: `frame` messages whose data is `{jpeg, width, height, url}`, or `waiting`.
   * Frames are a view, not a log: the iterator ends when the stream does, with nothing to resume.
   */
  async *frames(runId: string, options: { signal?: AbortSignal } = {}): AsyncGenerator<SseMessage> {
    const response = await this.http.open({ method: 'GET', path: '/v1/runs/{id}/live/frames', pathParams: { id: runId }, options: { signal: options.signal, headers: { accept: 'text/event-stream' } } });
    if (response.body) yield* readSse(response.body);
  }
}
