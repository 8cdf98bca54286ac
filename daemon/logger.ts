import pino, { type Logger } from 'pino';
import { prettyFactory } from 'pino-pretty';
import { TurnBatchedDestination, type LineSink } from './log-destination.js';
import { RotatingLogFile } from './rotating-log-file.js';

export interface DaemonLoggers {
  /** Everything but the access lines. */
  logger: Logger;
  /** One line per request (see request-log.ts). */
  access: Logger;
}

const BASE = { service: 'errandd' };

export interface LogFormat {
  /** Readable lines (pino-pretty) instead of JSON: for a person at a terminal. */
  pretty: boolean;
  /** Colours in the readable lines (not with NO_COLOR). */
  colour: boolean;
}

/**
 * Log lines on stderr, JSON or, for a person at a terminal, readable; or JSON lines in a rotated file (`log.file`,
 * which `errand daemon logs` shows readably). Stdout is reserved for the daemon's own announcements, the first of
 * which is its address. Lines are written once per turn of the event loop (see TurnBatchedDestination). Paths that
 * could carry a secret
 * are redacted as a second line of defence; the first is never logging them. The access lines have a fixed shape
 * with nothing to redact (no headers, paths without their query strings), so they go through a logger of their own
 * without redaction, to the same destination.
 */
export function createLoggers(
  level: string,
  format: LogFormat = { pretty: false, colour: false },
  file: { path: string; maxBytes: number; keep: number } | null = null,
): DaemonLoggers {
  const sink: LineSink =
    file !== null
      ? new RotatingLogFile(file.path, file.maxBytes, file.keep)
      : format.pretty
        ? prettyLines(pino.destination({ fd: 2, sync: true }), format.colour)
        : pino.destination({ fd: 2, sync: true });
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

/** Writes each JSON line as pino-pretty formats it. */
function prettyLines(sink: LineSink, colour: boolean): LineSink {
  const pretty = prettyFactory({ colorize: colour, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,service' });
  return {
    write: (text: string) =>
      sink.write(
        text
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => pretty(line))
          .join(''),
      ),
  };
}
