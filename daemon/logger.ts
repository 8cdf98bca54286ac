import pino, { type Logger } from 'pino';
import { TurnBatchedDestination } from './log-destination.js';

/**
 * JSON log lines on stderr (stdout is reserved for the daemon's own announcements, the first of which is its
 * address), written once per turn of the event loop (see TurnBatchedDestination). Paths that could carry a secret
 * are redacted as a second line of defence; the first is never logging them.
 */
export function createLogger(level: string): Logger {
  return pino(
    {
      level,
      base: { service: 'errandd' },
      redact: {
        paths: ['req.headers.authorization', 'headers.authorization', '*.api_key', '*.apiKey', '*.secret', '*.token', '*.password', 'env'],
        censor: '[redacted]',
      },
    },
    new TurnBatchedDestination(pino.destination({ fd: 2, sync: true })),
  );
}
