import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import type { TargetGuard } from '../network/target-guard.js';

export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

export interface GuardedFetchOptions {
  guard: TargetGuard;
  /** Ends every request of this fetch, in flight or streaming (a session closed, a run stopped). */
  signal?: AbortSignal;
  /** Sees the status of every response, before its body: how a session learns that a server answered 401 or 403. */
  onStatus?: (status: number) => void;
}

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/**
 * A `fetch` for servers a caller named (remote MCP servers): it connects only where the target guard
 * allows, checked on the address the socket actually connects to (so a DNS answer that changed since the URL was
 * accepted is caught), never follows redirects, and streams the response body (MCP's SSE streams). Built on
 * node:http because the global fetch cannot be given a lookup of our own.
 */
export function guardedFetch(options: GuardedFetchOptions): FetchLike {
  const lookup = options.guard.lookup('url');
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      let url: URL;
      try {
        url = new URL(input instanceof URL ? input.href : input);
        options.guard.assertDeliverable(url, 'url');
      } catch (err) {
        reject(err);
        return;
      }
      const signals = [init.signal, options.signal].filter((s): s is AbortSignal => s !== undefined && s !== null);
      const signal = signals.length === 0 ? undefined : AbortSignal.any(signals);
      if (signal?.aborted) {
        reject(abortError(signal));
        return;
      }
      const headers: Record<string, string> = {};
      new Headers(init.headers).forEach((value, name) => {
        headers[name] = value;
      });
      const body = bodyOf(init.body);
      if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
      const isHttps = url.protocol === 'https:';
      const req = (isHttps ? https : http).request(url, { method: init.method ?? 'GET', headers, lookup, agent: false });
      const onAbort = (): void => {
        req.destroy(abortError(signal!));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      req.on('error', (err) => {
        signal?.removeEventListener('abort', onAbort);
        reject(err);
      });
      req.on('response', (res) => {
        const status = res.statusCode ?? 0;
        options.onStatus?.(status);
        res.on('close', () => signal?.removeEventListener('abort', onAbort));
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (Array.isArray(value)) for (const v of value) responseHeaders.append(name, v);
          else if (value !== undefined) responseHeaders.set(name, value);
        }
        const stream = NULL_BODY_STATUSES.has(status) ? null : (Readable.toWeb(res) as unknown as ReadableStream<Uint8Array>);
        if (stream === null) res.resume();
        resolve(new Response(stream, { status, statusText: res.statusMessage ?? '', headers: responseHeaders }));
      });
      req.end(body);
    });
}

function bodyOf(body: RequestInit['body']): string | Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof URLSearchParams) return body.toString();
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  throw new TypeError('guardedFetch sends string, URLSearchParams and byte bodies only');
}

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new DOMException('This operation was aborted', 'AbortError');
}
