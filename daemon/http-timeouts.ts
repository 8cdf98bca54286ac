import type { Config } from '../src/config/schema.js';
import { ConfigError } from '../src/errors.js';
import type { BodyPaceOptions } from './plugins/body-pace.js';

/** How long the HTTP server waits for a request to arrive (docs/api.md, Requests; docs/configuration.md). */
export interface HttpTimeouts {
  /** The request line and headers (Node's headersTimeout). */
  headersMs: number;
  /** The whole request, its body included (Node's requestTimeout). */
  requestMs: number;
  /** The pace a body must keep while it arrives (plugins/body-pace.ts). */
  body: BodyPaceOptions;
  /** How often Node looks for requests past their timeouts: often enough that a timeout is kept within a quarter of it. */
  checkIntervalMs: number;
}

export type HttpTimeoutKeys = 'server.headers_timeout_s' | 'server.request_timeout_s' | 'server.body_idle_timeout_s' | 'server.body_min_bytes_per_s';

export function httpTimeouts(config: Pick<Config, HttpTimeoutKeys>): HttpTimeouts {
  const headersMs = config['server.headers_timeout_s'] * 1000;
  const requestMs = config['server.request_timeout_s'] * 1000;
  // Node refuses to start a server whose headers may take longer than the whole request.
  if (headersMs > requestMs) {
    throw new ConfigError('server.headers_timeout_s', `is ${config['server.headers_timeout_s']}, longer than server.request_timeout_s (${config['server.request_timeout_s']}); the headers are part of the request`);
  }
  return {
    headersMs,
    requestMs,
    body: { idleMs: config['server.body_idle_timeout_s'] * 1000, minBytesPerS: config['server.body_min_bytes_per_s'] },
    checkIntervalMs: Math.min(30_000, Math.max(250, Math.floor(headersMs / 4))),
  };
}
