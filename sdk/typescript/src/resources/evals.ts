import { randomUUID } from 'node:crypto';
import type { RequestOptions } from '../core.js';
import { WaitTimeoutError } from '../errors.js';
import type { PagePromise } from '../pagination.js';
import { sleep } from '../retry.js';
import type { Deleted, Eval, EvalCase, EvalCaseListParams, EvalCaseParams, EvalCreateParams, EvalListItem, EvalListParams } from '../types.js';
import { openSigned } from './download.js';
import { Resource } from './resource.js';

export interface EvalWaitOptions {
  /** Give up (WaitTimeoutError) after this long, in ms. Default: wait as long as the eval takes. */
  timeoutMs?: number;
  /** The interval between polls of GET /v1/evals/{id}, in ms. Default 1 000. */
  pollIntervalMs?: number;
  /** Called with the eval at every poll, for a progress display. */
  onProgress?: (evaluation: Eval) => void;
  signal?: AbortSignal;
}

const ENDED: ReadonlySet<Eval['status']> = new Set<Eval['status']>(['completed', 'cancelled']);

/** Evaluations of a job: its cases run as runs of the job, each graded against what a good result is. */
export class Evals extends Resource {
  /** The cases jobs keep, which an eval given no cases runs. */
  readonly cases = new EvalCases(this.http);

  /**
   * Starts an eval of the job (`POST /v1/jobs/{id}/evals`; 202, the eval queued). Without an `idempotency_key` the
   * SDK makes one, so that a retry after a lost answer never starts a second eval.
   */
  create(jobId: string, params: EvalCreateParams = {}, options?: RequestOptions): Promise<Eval> {
    const body = { ...params, idempotency_key: params.idempotency_key ?? randomUUID() };
    return this.call({ method: 'POST', path: '/v1/jobs/{id}/evals', pathParams: { id: jobId }, body, idempotent: true, options });
  }

  /** Starts the eval and waits for it to end (see `wait`). */
  async createAndWait(jobId: string, params: EvalCreateParams = {}, options: EvalWaitOptions & { request?: RequestOptions } = {}): Promise<Eval> {
    const started = Date.now();
    const created = await this.create(jobId, params, options.request);
    const timeoutMs = options.timeoutMs === undefined ? undefined : Math.max(0, options.timeoutMs - (Date.now() - started));
    return this.wait(created.id, { ...options, timeoutMs });
  }

  /** Polls the eval until it has ended (`completed` or `cancelled`) and answers it. */
  async wait(id: string, options: EvalWaitOptions = {}): Promise<Eval> {
    const deadline = new AbortController();
    const timer = options.timeoutMs === undefined ? null : setTimeout(() => deadline.abort(new WaitTimeoutError(id, options.timeoutMs!, 'eval')), options.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, deadline.signal]) : deadline.signal;
    try {
      for (;;) {
        const evaluation = await this.get(id, { signal });
        options.onProgress?.(evaluation);
        if (ENDED.has(evaluation.status)) return evaluation;
        await sleep(options.pollIntervalMs ?? 1_000, signal);
      }
    } catch (error) {
      throw signal.aborted ? signal.reason : error;
    } finally {
      if (timer) clearTimeout(timer);
    }
  }

  get(id: string, options?: RequestOptions): Promise<Eval> {
    return this.call({ method: 'GET', path: '/v1/evals/{id}', pathParams: { id }, options });
  }

  /** The job's evals, newest first, each with its totals. */
  list(jobId: string, params: EvalListParams = {}, options?: RequestOptions): PagePromise<EvalListItem> {
    return this.paginate('/v1/jobs/{id}/evals', { id: jobId }, params, options);
  }

  /** Cancels the eval: its cases without a run are skipped, its runs under way cancelled. */
  cancel(id: string, options?: RequestOptions): Promise<Eval> {
    return this.call({ method: 'POST', path: '/v1/evals/{id}/cancel', pathParams: { id }, idempotent: true, options });
  }

  /** The eval's report, an HTML page, by its signed `report_url` (no key is sent: the signature is the credential). */
  async report(reportUrl: string, options?: RequestOptions): Promise<string> {
    return (await openSigned(this.http, reportUrl, '/v1/evals/{id}/report', options)).text();
  }
}

/** The cases a job keeps. */
export class EvalCases extends Resource {
  list(jobId: string, params: EvalCaseListParams = {}, options?: RequestOptions): PagePromise<EvalCase> {
    return this.paginate('/v1/jobs/{id}/eval_cases', { id: jobId }, params, options);
  }

  create(jobId: string, params: EvalCaseParams, options?: RequestOptions): Promise<EvalCase> {
    return this.call({ method: 'POST', path: '/v1/jobs/{id}/eval_cases', pathParams: { id: jobId }, body: params, options });
  }

  get(id: string, options?: RequestOptions): Promise<EvalCase> {
    return this.call({ method: 'GET', path: '/v1/eval_cases/{id}', pathParams: { id }, options });
  }

  delete(id: string, options?: RequestOptions): Promise<Deleted<'/v1/eval_cases/{id}'>> {
    return this.call({ method: 'DELETE', path: '/v1/eval_cases/{id}', pathParams: { id }, options });
  }
}
