import { Readable } from 'node:stream';
import { Agent, fetch, type Response } from 'undici';
import type { BrowserRequest, BrowserResult, BrowserState, ExecRequest, ExecResult, HealthResponse, LiveInput, LoginCheck, LoginCheckResult, LoginLoaded, LoginRequest, MaskForm, OutputLimits, OutputListing, ProxyRequest, RecordingResult, SupervisorTls } from './protocol.js';
import type { RecordingFiles } from './driver.js';
import { SandboxError, type SandboxErrorCode } from './sandbox-error.js';
import { supervisorAgent } from './supervisor-channel.js';

export interface SupervisorClientOptions {
  /** e.g. `http://127.0.0.1:41234`, or `https://...` with `tls`. */
  baseUrl: string;
  token: string;
  /** The sandbox's TLS, as its supervisor got it; null when it speaks plain HTTP. */
  tls: SupervisorTls | null;
}

/** Typed client of the supervisor protocol (`protocol.ts`). Failures are `SandboxError`s; an abort rethrows the signal's reason. */
export class SupervisorClient {
  private readonly baseUrl: string;
  private readonly authorization: string;
  private readonly agent: Agent;

  constructor(options: SupervisorClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.authorization = `Bearer ${options.token}`;
    this.agent = options.tls === null ? new Agent() : supervisorAgent(options.tls);
  }

  /** Closes the connections kept open to the supervisor; a call after this fails. */
  async close(): Promise<void> {
    await this.agent.destroy();
  }

  health(signal?: AbortSignal): Promise<HealthResponse> {
    return this.json('GET', '/health', undefined, signal);
  }

  exec(request: ExecRequest, signal?: AbortSignal): Promise<ExecResult> {
    return this.json('POST', '/exec', request, signal);
  }

  browser(request: BrowserRequest, signal?: AbortSignal): Promise<BrowserResult> {
    return this.json('POST', '/browser', request, signal);
  }

  async warmBrowser(signal?: AbortSignal): Promise<void> {
    await this.request('POST', '/browser/warm', undefined, {}, signal);
  }

  async setProxy(proxy: ProxyRequest, signal?: AbortSignal): Promise<void> {
    await this.request('POST', '/proxy', undefined, proxy, signal);
  }

  useLogin(request: LoginRequest, signal?: AbortSignal): Promise<LoginLoaded> {
    return this.json('POST', '/login', request, signal);
  }

  readLogin(signal?: AbortSignal): Promise<BrowserState> {
    return this.json('GET', '/login', undefined, signal);
  }

  checkLogin(check: LoginCheck, signal?: AbortSignal): Promise<LoginCheckResult> {
    return this.json('POST', '/login/check', check, signal);
  }

  async startRecording(signal?: AbortSignal): Promise<void> {
    await this.request('POST', '/recording/start', undefined, {}, signal);
  }

  /** Stops the recording and fetches its files; null when nothing was recorded. */
  async finishRecording(mask: readonly MaskForm[], signal?: AbortSignal): Promise<RecordingFiles | null> {
    const result = await this.json<RecordingResult>('POST', '/recording/finish', { mask }, signal);
    if (result.trace === null) return null;
    const fetched = async (kind: 'trace' | 'video'): Promise<Buffer> => {
      const response = await this.request('GET', `/recording/${kind}`, undefined, undefined, signal);
      return Buffer.from(await this.read(response, (r) => r.arrayBuffer(), signal));
    };
    return { trace: await fetched('trace'), video: result.video === null ? null : await fetched('video'), detail: result.detail };
  }

  async putFile(path: string, content: Uint8Array, signal?: AbortSignal): Promise<void> {
    await this.request('PUT', `/files?path=${encodeURIComponent(path)}`, content, undefined, signal);
  }

  /** Streams one of the run's input files to `<workspace>/in/<name>` (never whole in memory). */
  async putInput(name: string, content: Readable, signal?: AbortSignal): Promise<void> {
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}/inputs?name=${encodeURIComponent(name)}`, {
        method: 'PUT',
        headers: { authorization: this.authorization, 'content-type': 'application/octet-stream' },
        body: content,
        // Node's fetch sends a stream body only half-duplex, and says so only when asked.
        duplex: 'half',
        signal: signal ?? null,
        dispatcher: this.agent,
      });
    } catch (error) {
      throw this.failure(error, signal);
    }
    if (!response.ok) throw await errorFrom(response);
    await response.body?.cancel();
  }

  async getFile(path: string, signal?: AbortSignal): Promise<Buffer> {
    const response = await this.request('GET', `/files?path=${encodeURIComponent(path)}`, undefined, undefined, signal);
    return Buffer.from(await this.read(response, (r) => r.arrayBuffer(), signal));
  }

  async limitOutputs(limits: OutputLimits, signal?: AbortSignal): Promise<void> {
    await this.request('POST', '/outputs/limits', undefined, limits, signal);
  }

  listOutputs(signal?: AbortSignal): Promise<OutputListing> {
    return this.json('GET', '/outputs', undefined, signal);
  }

  /** One file of /workspace/out/ as a stream: a run's file can be large, and is never held in memory whole. */
  async readOutput(name: string, signal?: AbortSignal): Promise<ReadableStream<Uint8Array>> {
    return bodyStream(await this.request('GET', `/outputs/file?name=${encodeURIComponent(name)}`, undefined, undefined, signal), 'file');
  }

  /** The live view's frames as the supervisor sends them (server-sent events), until `signal` aborts. */
  async liveFrames(signal: AbortSignal): Promise<ReadableStream<Uint8Array>> {
    return bodyStream(await this.request('GET', '/live/frames', undefined, undefined, signal), 'frame stream');
  }

  async liveInput(input: LiveInput, signal?: AbortSignal): Promise<void> {
    const response = await this.request('POST', '/live/input', undefined, input, signal);
    await response.body?.cancel();
  }

  private async json<T>(method: string, path: string, body: unknown, signal: AbortSignal | undefined): Promise<T> {
    const response = await this.request(method, path, undefined, body, signal);
    return this.read(response, (r) => r.json() as Promise<T>, signal);
  }

  /** The supervisor answers long calls with early headers, so the body can still fail after a 200. */
  private async read<T>(response: Response, reader: (response: Response) => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    try {
      return await reader(response);
    } catch (error) {
      throw this.failure(error, signal);
    }
  }

  private async request(
    method: string,
    path: string,
    raw: Uint8Array | undefined,
    json: unknown,
    signal: AbortSignal | undefined,
  ): Promise<Response> {
    const headers: Record<string, string> = { authorization: this.authorization };
    if (json !== undefined) headers['content-type'] = 'application/json';
    const body = json === undefined ? raw : JSON.stringify(json);
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}${path}`, { method, headers, body, signal: signal ?? null, dispatcher: this.agent });
    } catch (error) {
      throw this.failure(error, signal);
    }
    if (response.ok) return response;
    throw await errorFrom(response);
  }

  private failure(error: unknown, signal: AbortSignal | undefined): unknown {
    if (signal?.aborted === true) return signal.reason;
    if ((error as { cause?: { code?: unknown } }).cause?.code === 'ERR_SSL_WRONG_VERSION_NUMBER') {
      // A supervisor from before TLS (issue 26) answers the handshake in plain HTTP; it never will otherwise.
      const message = 'the sandbox supervisor answers without TLS, so the sandbox image is older than this daemon; rebuild it with `errand sandbox build`';
      return new SandboxError(message, { code: 'start_failed', cause: error });
    }
    return new SandboxError(`sandbox supervisor unreachable: ${describe(error)}`, { code: 'unreachable', cause: error });
  }
}

export interface WaitForHealthyOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  intervalMs?: number;
}

/** Polls `/health` until the supervisor answers, for drivers that cannot read its `listening` line. */
export async function waitForHealthy(client: SupervisorClient, options: WaitForHealthyOptions): Promise<HealthResponse> {
  const deadline = Date.now() + options.timeoutMs;
  let lastError: unknown;
  for (;;) {
    options.signal?.throwIfAborted();
    try {
      return await client.health(options.signal);
    } catch (error) {
      if (options.signal?.aborted === true) throw options.signal.reason;
      // Neither a wrong token nor an image older than the daemon gets better by waiting.
      if (error instanceof SandboxError && (error.code === 'unauthorized' || error.code === 'start_failed')) throw error;
      lastError = error;
    }
    if (Date.now() >= deadline) {
      throw new SandboxError(`sandbox supervisor not healthy after ${options.timeoutMs} ms: ${describe(lastError)}`, {
        code: 'start_failed',
        cause: lastError,
      });
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 100));
  }
}

const CODES_BY_STATUS: Record<number, SandboxErrorCode> = {
  400: 'bad_request',
  401: 'unauthorized',
  404: 'not_found',
  409: 'no_page',
  413: 'payload_too_large',
};

/**
 * A response's body as a stream that outlives the call that got it: undici cancels the body of a Response that is
 * garbage-collected, so the stream's source holds the Response.
 */
function bodyStream(response: Response, what: string): ReadableStream<Uint8Array> {
  const body = response.body;
  if (body === null) throw new SandboxError(`the supervisor sent no ${what}`, { code: 'supervisor_error' });
  const reader = body.getReader();
  const source: UnderlyingDefaultSource<Uint8Array> & { response: Response } = {
    response,
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value as Uint8Array);
    },
    cancel: (reason) => reader.cancel(reason),
  };
  return new ReadableStream(source);
}

async function errorFrom(response: Response): Promise<SandboxError> {
  const text = await response.text().catch(() => '');
  let message = text.slice(0, 500);
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } };
    if (typeof parsed.error?.message === 'string') message = parsed.error.message;
  } catch {
    // Not the protocol's error shape; keep the raw text.
  }
  const code = CODES_BY_STATUS[response.status] ?? 'supervisor_error';
  return new SandboxError(`sandbox supervisor answered ${response.status}: ${message}`, { code, status: response.status });
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? `${error.message} (${error.cause.message})` : error.message;
}
