import { randomUUID } from 'node:crypto';
import type { HttpClient, RequestOptions } from '../core.js';
import { WaitTimeoutError } from '../errors.js';
import type { EventStream, StreamOptions } from '../event-stream.js';
import type { ListEnvelope, PagePromise } from '../pagination.js';
import { sleep } from '../retry.js';
import type { ErrandEvent, JobRunCreateParams, ResponseOf, Run, RunCheck, RunCreated, RunCreateParams, RunHumanAnswer, RunFile, RunListParams, RunListItem, RunStatus, Step } from '../types.js';
import { openSigned } from './download.js';
import { endsRun, eventStream } from './events.js';
import { Live } from './live.js';
import { Resource } from './resource.js';

/** A run of a job: `POST /v1/jobs/{job_id}/runs` with the rest of the parameters as its body. */
export type JobRunParams = { job_id: string } & JobRunCreateParams;
export type CreateParams = RunCreateParams | JobRunParams;

/** What `create` takes besides the request options: the caller's trace context. */
export interface RunCreateOptions extends RequestOptions {
  /**
   * The W3C `traceparent` of the caller's span (`00-<trace id>-<span id>-<flags>`): with tracing configured on the
   * daemon, the run's trace joins the caller's, and its webhooks carry the run's span. From OpenTelemetry:
   * `propagation.inject(context.active(), carrier)` and pass `carrier.traceparent`.
   */
  traceparent?: string;
}

export interface WaitOptions {
  /** Give up (WaitTimeoutError) after this long, in ms. Default: wait as long as the run takes. */
  timeoutMs?: number;
  /** Poll with GET /v1/runs/{id} instead of following the run's event stream. Default false. */
  poll?: boolean;
  /** The interval between polls, in ms (also when the stream cannot be used). Default 1 000. */
  pollIntervalMs?: number;
  signal?: AbortSignal;
}

const ENDED: ReadonlySet<RunStatus> = new Set<RunStatus>(['succeeded', 'failed', 'cancelled']);

export class Runs extends Resource {
  readonly live: Live;

  constructor(http: HttpClient) {
    super(http);
    this.live = new Live(http);
  }

  /**
   * Starts a run: of a prompt (`POST /v1/runs`), or of a job when `job_id` is given (`POST /v1/jobs/{id}/runs`).
   * Without an `idempotency_key` the SDK makes one, so that a retry after a lost answer never starts a second run.
   * The daemon reads the body's member; the key also goes in an `Idempotency-Key` header, where proxies and
   * request logs see it without reading bodies.
   */
  create(params: CreateParams, options?: RunCreateOptions): Promise<RunCreated> {
    const idempotencyKey = params.idempotency_key ?? randomUUID();
    const body = { ...params, idempotency_key: idempotencyKey };
    const { traceparent, ...request } = options ?? {};
    const headers = { ...request.headers, 'idempotency-key': idempotencyKey, ...(traceparent === undefined ? {} : { traceparent }) };
    const withKey = { ...request, headers };
    return this.call({ method: 'POST', ...target(body, ''), idempotent: true, options: withKey });
  }

  /** Makes every check creating the run would make, and creates nothing (`POST /v1/runs/check`). */
  check(params: CreateParams, options?: RequestOptions): Promise<RunCheck> {
    return this.call({ method: 'POST', ...target(params, '/check'), idempotent: true, options });
  }

  /** Starts the run and waits for it to end (see `wait`): the final envelope. */
  async createAndWait(params: CreateParams, options: WaitOptions & { request?: RunCreateOptions } = {}): Promise<Run> {
    const started = Date.now();
    const created = await this.create(params, options.request);
    const timeoutMs = options.timeoutMs === undefined ? undefined : Math.max(0, options.timeoutMs - (Date.now() - started));
    return this.wait(created.task_id, { ...options, timeoutMs });
  }

  /**
   * Waits for the run to end and answers its final envelope. Follows the run's event stream (resumed after cuts) and
   * polls `GET /v1/runs/{id}` when the stream cannot be used (say, 429 too_many_streams) or when `poll` is set.
   */
  async wait(id: string, options: WaitOptions = {}): Promise<Run> {
    const deadline = new AbortController();
    const timer = options.timeoutMs === undefined ? null : setTimeout(() => deadline.abort(new WaitTimeoutError(id, options.timeoutMs!)), options.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, deadline.signal]) : deadline.signal;
    try {
      if (!options.poll) {
        try {
          for await (const event of this.events(id, { signal })) {
            if (endsRun(event)) return event.data as Run;
          }
        } catch {
          if (signal.aborted) throw signal.reason;
          // The stream could not be used (429 too_many_streams, a proxy that cuts it for good): polling answers the
          // same question, and reports what is really wrong (a 404) itself.
        }
      }
      for (;;) {
        const run = await this.get(id, { signal });
        if (ENDED.has(run.status)) return run;
        await sleep(options.pollIntervalMs ?? 1_000, signal);
      }
    } catch (error) {
      throw signal.aborted ? signal.reason : error;
    } finally {
      if (timer) clearTimeout(timer);
    }
  }

  get(id: string, options?: RequestOptions): Promise<Run> {
    return this.call({ method: 'GET', path: '/v1/runs/{id}', pathParams: { id }, options });
  }

  /** The organisation's runs, newest first; `job_id` filters by job. */
  list(params: RunListParams = {}, options?: RequestOptions): PagePromise<RunListItem> {
    return this.paginate('/v1/runs', {}, params, options);
  }

  cancel(id: string, options?: RequestOptions): Promise<Run> {
    return this.call({ method: 'POST', path: '/v1/runs/{id}/cancel', pathParams: { id }, idempotent: true, options });
  }

  /** Starts a new run with the same request as this one. */
  rerun(id: string, options?: RequestOptions): Promise<ResponseOf<'/v1/runs/{id}/rerun', 'post'>> {
    return this.call({ method: 'POST', path: '/v1/runs/{id}/rerun', pathParams: { id }, options });
  }

  /**
   * Answers the question `params.request_id` names, the run's `waiting_for.request_id` (`run.needs_human`). An answer
   * goes to that question only: when the run asks another by then, it is refused (409 `request_mismatch`, whose
   * message says what the run asks now) and applied to nothing.
   */
  answerHuman(id: string, params: RunHumanAnswer, options?: RequestOptions): Promise<ResponseOf<'/v1/runs/{id}/human', 'post'>> {
    return this.call({ method: 'POST', path: '/v1/runs/{id}/human', pathParams: { id }, body: params, options });
  }

  /** Every step (model and tool call) of the run, in order. */
  steps(id: string, options?: RequestOptions): Promise<ListEnvelope<Step>> {
    return this.call({ method: 'GET', path: '/v1/runs/{id}/steps', pathParams: { id }, options });
  }

  /**
   * The run's own files (what its browser downloaded and its code wrote under /workspace/out/), each with a signed
   * `url` for `downloadFile`; none until the run ends.
   */
  files(id: string, options?: RequestOptions): PagePromise<RunFile> {
    return this.paginate('/v1/runs/{id}/files', { id }, {}, options);
  }

  /**
   * The file behind one of a run's signed links (a `url` of `files`, or of the envelope's `files`), without a key:
   * the response, whose `body` streams the bytes (a run's files may be large); `arrayBuffer()` reads them whole.
   */
  downloadFile(url: string, options?: RequestOptions): Promise<Response> {
    return openSigned(this.http, url, '/v1/runs/{id}/files/{file}', options);
  }

  /**
   * The run's events, from its first (or after `lastEventId`), resumed across cuts and daemon restarts; the
   * iterator ends after the run's end event (`run.completed`, `run.failed`, `run.cancelled`).
   */
  events(id: string, options: StreamOptions = {}): EventStream<ErrandEvent> {
    return eventStream(this.http, '/v1/runs/{id}/events', { id }, options, endsRun);
  }
}

function target(params: CreateParams, suffix: string): { path: string; pathParams?: Record<string, string>; body: object } {
  if ('job_id' in params && typeof params.job_id === 'string') {
    const { job_id, ...body } = params;
    return { path: `/v1/jobs/{id}/runs${suffix}`, pathParams: { id: job_id }, body };
  }
  return { path: `/v1/runs${suffix}`, body: params };
}
