import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { ForbiddenTargetError, type TargetGuard } from '../network/target-guard.js';

export interface SendResult {
  /** The receiver's status code, or null when no response arrived (refused target, network error, timeout). */
  statusCode: number | null;
  retryAfter: string | undefined;
  /** Why the attempt failed, or null for a 2xx. */
  error: string | null;
  /** The target was refused by policy; retrying cannot help. */
  refused: boolean;
  latencyMs: number;
}

export interface SendOptions {
  headers: Record<string, string>;
  timeoutMs: number;
  guard: TargetGuard;
  agents: { http: http.Agent; https: https.Agent };
}

/** Most of a response body that is read (and thrown away); a receiver's answer is not ours to store. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * POSTs one webhook. Never follows redirects (a 3xx is a failed attempt: the redirect target was never
 * checked), and connects only to addresses the target guard allows, checked on the resolved address itself.
 */
export function sendWebhook(url: string, body: string, options: SendOptions): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const failed = (error: string, refused = false): SendResult => ({ statusCode: null, retryAfter: undefined, error, refused, latencyMs: elapsed() });

  let target: URL;
  try {
    target = new URL(url);
    options.guard.assertDeliverable(target);
  } catch (err) {
    return Promise.resolve(failed((err as Error).message, true));
  }

  return new Promise<SendResult>((resolve) => {
    const isHttps = target.protocol === 'https:';
    const req = (isHttps ? https : http).request(target, {
      method: 'POST',
      agent: isHttps ? options.agents.https : options.agents.http,
      lookup: options.guard.lookup(),
      headers: {
        ...options.headers,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': 'Errand-Webhooks/1',
      },
    });
    const timeoutMessage = `no complete response within ${options.timeoutMs / 1000} s`;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      req.destroy(new Error(timeoutMessage));
    }, options.timeoutMs);
    const finish = (result: SendResult) => {
      clearTimeout(timer);
      resolve(result);
    };
    req.on('error', (err) => {
      if (err instanceof ForbiddenTargetError) finish(failed(err.message, true));
      else finish(failed(err.message));
    });
    req.on('response', (res) => {
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_RESPONSE_BYTES) res.destroy();
      });
      const done = () => {
        // Headers in time but a body that never ends is still a timeout, whatever the status said.
        if (timedOut) return finish(failed(timeoutMessage));
        const status = res.statusCode ?? 0;
        const retryAfter = typeof res.headers['retry-after'] === 'string' ? res.headers['retry-after'] : undefined;
        let error: string | null = null;
        if (status >= 300 && status < 400) error = `receiver answered ${status} redirect to ${res.headers.location ?? '(no location)'}; redirects are not followed`;
        else if (status < 200 || status >= 300) error = `receiver answered ${status}`;
        finish({ statusCode: status, retryAfter, error, refused: false, latencyMs: elapsed() });
      };
      res.on('end', done);
      res.on('close', () => {
        if (!res.complete) done();
      });
      res.on('error', () => undefined);
    });
    req.end(body);
  });
}
