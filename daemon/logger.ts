import pino, { type Logger } from 'pino';
import { TurnBatchedDestination, type LineSink } from './log-destination.js';
import { RotatingLogFile } from './rotating-log-file.js';

export interface DaemonLoggers {
  /** Everything but the access lines. */
  logger: Logger;
  /** One line per request (see request-log.ts). */
  access: Logger;
}

const BASE = { service: 'errandd' };

/**
 * JSON log lines on stderr, or in a rotated file (`log.file`) (stdout is reserved for the daemon's own announcements, the first of which is its
 * address), written once per turn of the event loop (see TurnBatchedDestination). Paths that could carry a secret
 * are redacted as a second line of defence; the first is never logging them. The access lines have a fixed shape
 * with nothing to redact (no headers, paths without their query strings), so they go through a logger of their own
 * without redaction, to the same destination.
 */
export function createLoggers(level: string, file: { path: string; maxBytes: number; keep: number } | null = null): DaemonLoggers {
  const sink: LineSink = file === null ? pino.destination({ fd: 2, sync: true }) : new RotatingLogFile(file.path, file.maxBytes, file.keep);
  const destination = new TurnBatchedDestination(sink);
  const logger = pino(
    {
      level,
      base: BASE,
      redact: {
        paths: ['req.headers.authorization', 'headers.authorization', '*.api_key', '*.apiKey', '*.secret', '*.token', '*.password', 'env'],
        censor: '[redacted]',
      },
    },
    destination,
  );
  const access = pino({ level, base: BASE }, destination);
  return { logger, access };
}
