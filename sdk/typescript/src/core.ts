/**
 * The one way the SDK talks to the daemon: builds the request, applies the timeout, retries what is safe to retry
 * and turns error answers into typed errors. Resources call `request` (JSON answers) or `open` (a response whose body
 * they read themselves: event streams, files).
 */
import { APIConnectionError, APITimeoutError, ErrandError, errorFromResponse } from './errors.js';
import { isRetryableStatus, retryDelayMs, sleep } from './retry.js';
import { VERSION } from './version.js';

export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface ClientOptions {
  /** The API key (`ek_...`). Default: the ERRAND_API_KEY environment variable. */
  apiKey?: string;
  /** The daemon's address. Default: ERRAND_API_URL, else http://127.0.0.1:7370. */
  baseUrl?: string;
  /** How long one attempt may take before it is abandoned (an APITimeoutError), in ms. Default 60 000. */
  timeoutMs?: number;
  /** How many times a failed request is tried again (429, 5xx, no answer). Default 2. */
  maxRetries?: number;
  /** The longest `Retry-After` waited for; a longer one is thrown at once as the error it came with. Default 60 000 ms. */
  maxRetryDelayMs?: number;
  /** The fetch every request goes through. Default: the global fetch. */
  fetch?: Fetch;
  /** Headers sent with every request. */
  defaultHeaders?: Record<string, string>;
}

/** Per-call overrides. */
export interface RequestOptions {
  timeoutMs?: number;
  maxRetries?: number;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

export type QueryValue = string | number | boolean | null | undefined;

export interface Call {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** The path template as the OpenAPI document writes it (`/v1/runs/{id}`). */
  path: string;
  pathParams?: Record<string, string>;
  query?: Record<string, QueryValue> | object;
  body?: unknown;
  options?: RequestOptions | undefined;
  /**
   * Whether trying the request again after a 5xx or a lost connection cannot do its work twice: true for GET, PATCH,
   * DELETE and for POSTs that carry an idempotency key or are idempotent by nature (cancel, check). Any request is
   * tried again after a 429, which the daemon answers before doing anything.
   */
  idempotent?: boolean;
  /** Whether the call needs the API key (`false` for signed links and the public routes). */
  auth?: boolean;
  /** A body sent as it is (an upload) rather than as JSON. */
  raw?: RawBody;
}

/**
 * Bytes sent as the body. A stream is sent as it is read, never held whole; it can be sent once only, so a call
 * with one is not tried again.
 */
export interface RawBody {
  data: Blob | Uint8Array | ReadableStream<Uint8Array>;
  contentType: string;
  /**
   * The stream's length in bytes, sent as `Content-Length`, so that the daemon can refuse a body too large at once
   * rather than once that many bytes have gone; a stream of another length fails the request.
   */
  size?: number;
}

const BASE_DELAY_MS = 500;
const MAX_BACKOFF_MS = 8_000;

export class HttpClient {
  readonly baseUrl: string;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly maxRetryDelayMs: number;
  private readonly apiKey: string | undefined;
  private readonly fetchImpl: Fetch;
  private readonly defaultHeaders: Record<string, string>;

  constructor(options: ClientOptions = {}) {
    this.apiKey = options.apiKey ?? process.env.ERRAND_API_KEY;
    this.baseUrl = (options.baseUrl ?? process.env.ERRAND_API_URL ?? 'http://127.0.0.1:7370').replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.maxRetries = options.maxRetries ?? 2;
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? 60_000;
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.defaultHeaders = options.defaultHeaders ?? {};
  }

  /** A call whose answer is JSON (or nothing, for a 204), parsed. */
  async request<T>(call: Call): Promise<T> {
    const response = await this.send(call, (r) => readBody(r));
    return response.body as T;
  }

  /** A call whose body the caller reads (an event stream, a file): the timeout covers the wait for the headers only. */
  async open(call: Call): Promise<Response> {
    return (await this.send(call, null)).response;
  }

  /** The URL of a call, for links the caller hands on. */
  url(path: string, pathParams: Record<string, string> = {}, query: object = {}): string {
    const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = pathParams[name];
      if (value === undefined || value === '') throw new TypeError(`missing path parameter ${name} for ${path}`);
      return encodeURIComponent(value);
    });
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query as Record<string, QueryValue>)) {
      if (value !== undefined && value !== null) search.append(name, String(value));
    }
    const qs = search.toString();
    return `${this.baseUrl}${filled}${qs ? `?${qs}` : ''}`;
  }

  private async send(call: Call, read: ((r: Response) => Promise<unknown>) | null): Promise<{ response: Response; body: unknown }> {
    const url = this.url(call.path, call.pathParams, call.query ?? {});
    const options = call.options ?? {};
    // A stream can be read once: a call that sends one is not tried again.
    const maxRetries = call.raw?.data instanceof ReadableStream ? 0 : (options.maxRetries ?? this.maxRetries);
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const idempotent = call.idempotent ?? call.method !== 'POST';
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': `errand-sdk-typescript/${VERSION}`,
      ...this.defaultHeaders,
      ...options.headers,
    };
    if (call.auth !== false) {
      if (!this.apiKey) throw new ErrandError('no API key: pass apiKey or set ERRAND_API_KEY');
      headers.authorization = `Bearer ${this.apiKey}`;
    }
    let payload: string | Blob | Uint8Array | ReadableStream<Uint8Array> | undefined;
    // A streamed body takes as long as its bytes take to send: the timeout counts from its last byte.
    let sent: Promise<void> | null = null;
    if (call.raw !== undefined) {
      headers['content-type'] = call.raw.contentType;
      if (call.raw.size !== undefined) headers['content-length'] = String(call.raw.size);
      payload = call.raw.data;
      if (payload instanceof ReadableStream) {
        const ended = withEnd(payload);
        payload = ended.stream;
        sent = ended.ended;
      }
    } else if (call.body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(call.body);
    }
    // fetch sends a stream only when told that the request goes out while the answer may come back (half duplex).
    const streamed = payload instanceof ReadableStream ? { duplex: 'half' } : {};

    for (let attempt = 0; ; attempt++) {
      const deadline = new AbortController();
      let timer: ReturnType<typeof setTimeout> | undefined;
      let settled = false;
      const startTimer = () => {
        if (!settled) timer = setTimeout(() => deadline.abort(), timeoutMs);
      };
      const stopTimer = () => {
        settled = true;
        clearTimeout(timer);
      };
      if (sent === null) startTimer();
      else void sent.then(startTimer, () => undefined);
      const signal = options.signal ? AbortSignal.any([options.signal, deadline.signal]) : deadline.signal;
      let response: Response;
      let body: unknown;
      try {
        response = await this.fetchImpl(url, { method: call.method, headers, body: payload as BodyInit | undefined, signal, ...streamed } as RequestInit);
        // The body is read under the same timeout; a stream's caller reads it without one.
        body = read ? await read(response) : undefined;
      } catch (error) {
        stopTimer();
        if (options.signal?.aborted) throw options.signal.reason;
        const failure = deadline.signal.aborted
          ? new APITimeoutError(timeoutMs, { baseUrl: this.baseUrl })
          : new APIConnectionError(`could not reach ${this.baseUrl}: ${describe(error)}`, { cause: error, baseUrl: this.baseUrl });
        if (idempotent && attempt < maxRetries) {
          await sleep(retryDelayMs(attempt, null, BASE_DELAY_MS, MAX_BACKOFF_MS), options.signal);
          continue;
        }
        throw failure;
      }
      stopTimer();
      if (response.ok) return { response, body };
      if (read === null) body = await readBody(response).catch(() => undefined);
      const error = errorFromResponse(response.status, response.headers, body);
      const retryable = isRetryableStatus(response.status) && (response.status === 429 || idempotent);
      if (retryable && attempt < maxRetries) {
        const delay = retryDelayMs(attempt, response.headers, BASE_DELAY_MS, MAX_BACKOFF_MS);
        if (delay <= this.maxRetryDelayMs) {
          await sleep(delay, options.signal);
          continue;
        }
      }
      throw error;
    }
  }
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (text === '') return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (!type.includes('json')) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
  }
  return String(error);
}

/** `stream`, passed through, and when it has been read to its end (the request's body was all sent). */
function withEnd(stream: ReadableStream<Uint8Array>): { stream: ReadableStream<Uint8Array>; ended: Promise<void> } {
  let ended!: () => void;
  let failed!: (error: unknown) => void;
  const done = new Promise<void>((resolve, reject) => {
    ended = resolve;
    failed = reject;
  });
  const through = new TransformStream<Uint8Array, Uint8Array>({ flush: () => ended() });
  stream.pipeTo(through.writable).catch((error: unknown) => failed(error));
  return { stream: through.readable, ended: done };
}
