import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ErrorObject } from 'ajv';
import { InvalidRequestError } from '../errors.js';
import { checkSchemaBounds } from '../json-schema/schema-bounds.js';
import type { SchemaReply, SchemaRequest } from '../json-schema/schema-thread.js';
import { packageRoot } from '../package-root.js';

export interface UserSchemasOptions {
  /** Longest one compilation or check may take in the worker (`limits.schema_check_ms`); beyond it: 400. */
  budgetMs: number;
  /** Heap of the worker thread: a schema that needs more is refused like one that takes too long. */
  maxHeapMb?: number;
}

interface Pending {
  request: SchemaRequest;
  param: string;
  /** The code of the 400 when the schema does not compile. */
  code: string;
  what: string;
  resolve: (errors: ErrorObject[] | null) => void;
  reject: (err: Error) => void;
}

/**
 * The JSON Schemas callers send (`input_schema`, `output_schema`): held to SCHEMA_BOUNDS, then compiled and checked
 * against data in a worker thread (`json-schema/schema-thread.ts`), never on the daemon's event loop (#10), so that
 * no schema can keep the daemon from answering other requests. The worker takes one request at a time; one that runs
 * past the time budget or out of its heap is refused with `400 schema_too_complex` and the worker is replaced, so
 * it cannot hold up the requests behind it for longer than that either.
 */
export class UserSchemas {
  private worker: Worker | null = null;
  /** Whether `worker` has said it is ready (see SchemaReply). */
  private ready = false;
  private readonly queue: Pending[] = [];
  private inFlight: { pending: Pending; timer: NodeJS.Timeout } | null = null;
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: UserSchemasOptions) {}

  /**
   * Checks that `schema` is within bounds and compiles; throws 400 naming `param` (`input_schema`, `output_schema`),
   * with the code `invalid_<param>` unless another is given (an eval case's schema matcher: `invalid_expectation`).
   */
  async check(schema: unknown, param: string, code = `invalid_${param}`): Promise<void> {
    await this.run(schema, param, code, undefined, `compiling ${param}`);
  }

  /** The ways `data` violates `schema`, or an empty list. Throws 400 as `check` does when the schema is refused. */
  async validate(schema: unknown, param: string, data: unknown, code = `invalid_${param}`): Promise<ErrorObject[]> {
    return (await this.run(schema, param, code, data, `checking data against ${param}`)) ?? [];
  }

  /** Stops the worker; later calls are refused. */
  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = null;
    for (const p of this.queue.splice(0)) p.reject(new Error('the schema checker is closed'));
    await worker?.terminate();
  }

  private run(schema: unknown, param: string, code: string, data: unknown, what: string): Promise<ErrorObject[] | null> {
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
      return Promise.reject(new InvalidRequestError(code, `${param} must be a JSON Schema object`, { param }));
    }
    if (this.closed) return Promise.reject(new Error('the schema checker is closed'));
    const text = checkSchemaBounds(schema as Record<string, unknown>, param);
    return new Promise((resolve, reject) => {
      const request: SchemaRequest = data === undefined ? { id: this.nextId++, schema: text } : { id: this.nextId++, schema: text, data };
      this.queue.push({ request, param, code, what, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    if (this.inFlight !== null || this.closed || this.queue.length === 0) return;
    const worker = this.ensureWorker();
    if (!this.ready) return;
    const pending = this.queue.shift()!;
    const timer = setTimeout(() => this.fail(worker, `${pending.what} took longer than ${this.options.budgetMs} ms (limits.schema_check_ms)`), this.options.budgetMs);
    this.inFlight = { pending, timer };
    worker.postMessage(pending.request);
  }

  private ensureWorker(): Worker {
    if (this.worker !== null) return this.worker;
    const worker = new Worker(join(packageRoot(), 'dist', 'src', 'json-schema', 'schema-thread.js'), {
      resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb ?? 256 },
    });
    // The daemon's exit must not wait for it.
    worker.unref();
    worker.on('message', (reply: SchemaReply) => {
      if ('ready' in reply) {
        this.ready = true;
        this.dispatch();
      } else this.answered(reply);
    });
    worker.on('error', (err) => this.fail(worker, `${this.inFlight?.pending.what ?? 'the schema checker'} failed: ${err.message}`));
    worker.on('exit', () => this.fail(worker, `${this.inFlight?.pending.what ?? 'the schema checker'} stopped the schema checker`));
    this.worker = worker;
    this.ready = false;
    return worker;
  }

  private answered(reply: Exclude<SchemaReply, { ready: true }>): void {
    const current = this.inFlight;
    if (current === null || current.pending.request.id !== reply.id) return;
    clearTimeout(current.timer);
    this.inFlight = null;
    const { pending } = current;
    if (reply.ok) pending.resolve(reply.errors);
    else pending.reject(new InvalidRequestError(pending.code, `${pending.param} is not a valid JSON Schema: ${reply.invalid}`, { param: pending.param }));
    this.dispatch();
  }

  /**
   * The request in flight on `worker` is refused and the worker replaced; the requests behind it go to the next one.
   * A worker that fails before it is ready cannot be started at all: every waiting request fails (a 500).
   */
  private fail(worker: Worker, reason: string): void {
    if (this.worker !== worker) return;
    this.worker = null;
    void worker.terminate();
    if (!this.ready) {
      for (const p of this.queue.splice(0)) p.reject(new Error(`the schema checker could not start: ${reason}`));
      return;
    }
    const current = this.inFlight;
    this.inFlight = null;
    if (current !== null) {
      clearTimeout(current.timer);
      const { param } = current.pending;
      current.pending.reject(
        new InvalidRequestError('schema_too_complex', `${param} is too costly to use: ${reason}; make it smaller or simpler`, { param }),
      );
    }
    this.dispatch();
  }
}

/** `/inputs/city` or a missing `city` at the root becomes `inputs.city`. */
export function errorParam(prefix: string, e: ErrorObject): string {
  const path = e.instancePath.split('/').filter(Boolean);
  if (e.keyword === 'required') path.push(String((e.params as { missingProperty: string }).missingProperty));
  if (e.keyword === 'additionalProperties') path.push(String((e.params as { additionalProperty: string }).additionalProperty));
  return [prefix, ...path].join('.');
}

export function describeErrors(prefix: string, errors: ErrorObject[]): string[] {
  return errors.map((e) => `${errorParam(prefix, e)} ${e.message ?? 'is invalid'}`);
}
