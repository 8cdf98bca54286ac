import pino, { type Logger } from 'pino';

/**
 * JSON log lines on stderr (stdout is reserved for the daemon's own announcements, the first of which is its
 * address). Paths that could carry a secret are redacted as a second line of defence; the first is never
 * logging them.
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
    pino.destination({ fd: 2, sync: false }),
  );
}
