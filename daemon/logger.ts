import pino, { type Logger } from 'pino';
import { TurnBatchedDestination } from './log-destination.js';

export interface DaemonLoggers {
  /** Everything but the access lines. */
  logger: Logger;
  /** One line per request (see request-log.ts). */
  access: Logger;
}

const BASE = { service: 'errandd' };

/**
 * JSON log lines on stderr (stdout is reserved for the daemon's own announcements, the first of which is its
 * address), written once per turn of the event loop (see TurnBatchedDestination). Paths that could carry a secret
 * are redacted as a second line of defence; the first is never logging them. The access lines have a fixed shape
 * with nothing to redact (no headers, paths without their query strings), so they go through a logger of their own
 * without redaction, to the same destination.
 */
export function createLoggers(level: string): DaemonLoggers {
  const destination = new TurnBatchedDestination(pino.destination({ fd: 2, sync: true }));
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
