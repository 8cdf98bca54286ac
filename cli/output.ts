import { CommanderError } from 'commander';
import { ErrandError } from '../src/errors.js';
import { APIConnectionError, APIError, APITimeoutError } from './api.js';
import { EXIT_ERROR, EXIT_OK, EXIT_USAGE, SilentExit, UsageError, UserError } from './cli-errors.js';
import { cliName } from './invocation.js';

export interface Column<T> {
  header: string;
  value: (row: T) => string | number | boolean | null | undefined;
  /** Longest cell before it is cut with an ellipsis. */
  max?: number;
}

export interface Sink {
  write(chunk: string): unknown;
}

/**
 * Everything the CLI prints goes through here. With `--json`, stdout carries only machine output; notes,
 * warnings and errors always go to stderr, so `errand ... --json | jq` never sees them.
 */
export class Output {
  constructor(
    readonly json: boolean,
    readonly stdout: Sink = process.stdout,
    readonly stderr: Sink = process.stderr,
  ) {}

  /** Prints `value` as JSON in `--json` mode, otherwise calls `human` to print it for people. */
  result(value: unknown, human: () => void): void {
    if (this.json) this.printJson(value);
    else human();
  }

  printJson(value: unknown): void {
    this.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  }

  /** A line of human output on stdout (never in `--json` mode: commands call it from `result`'s human side). */
  line(text = ''): void {
    this.stdout.write(`${text}\n`);
  }

  /** Progress and hints for people, on stderr. */
  note(text: string): void {
    this.stderr.write(`${text}\n`);
  }

  warn(text: string): void {
    this.stderr.write(`warning: ${text}\n`);
  }

  table<T>(rows: readonly T[], columns: readonly Column<T>[], empty = 'nothing to show'): void {
    if (rows.length === 0) {
      this.note(empty);
      return;
    }
    this.stdout.write(formatTable(rows, columns));
  }

  /** Key/value lines with aligned keys, for one record. */
  fields(pairs: ReadonlyArray<readonly [string, string | number | boolean | null | undefined]>): void {
    const width = Math.max(...pairs.map(([k]) => k.length));
    for (const [k, v] of pairs) this.line(`${`${k}:`.padEnd(width + 1)} ${cell(v)}`);
  }

  /**
   * Prints an error the way every command does, and answers the exit code it deserves. With `--json` the error is
   * one JSON object on stderr in the API's error shape, and stdout stays empty.
   */
  error(err: unknown): number {
    if (err instanceof SilentExit) return err.exitCode;
    if (err instanceof CommanderError) {
      if (err.exitCode === 0) return EXIT_OK;
      // Without --json commander has already printed its message (and help); with it, it printed nothing.
      if (this.json) this.stderr.write(`${JSON.stringify(errorBody(usageErrorOf(err)))}\n`);
      return EXIT_USAGE;
    }
    if (this.json) this.stderr.write(`${JSON.stringify(errorBody(err))}\n`);
    else if (err instanceof UsageError) this.stderr.write(`error: ${err.message}\n(see --help)\n`);
    else this.stderr.write(`${formatError(err)}\n`);
    return err instanceof UsageError ? EXIT_USAGE : EXIT_ERROR;
  }
}

/** Commander's `commander.unknownOption` as `unknown_option`, with its message without the `error: ` prefix. */
function usageErrorOf(err: CommanderError): UsageError {
  const code = err.code.replace(/^commander\./, '').replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  return new UsageError(err.message.replace(/^error: /, ''), code);
}

/** An error in the API's shape, `{error: {type, code, message, param?}, request_id?}`, whoever raised it. */
export function errorBody(err: unknown): { error: { type: string; code: string; message: string; param?: string }; request_id?: string } {
  const body = (type: string, code: string, message: string, param: string | null | undefined, requestId: string | null = null) => ({
    error: { type, code, message, ...(param ? { param } : {}) },
    ...(requestId ? { request_id: requestId } : {}),
  });
  if (err instanceof APIError) return body(err.shaped ? err.type : 'api_error', err.code, messageOf(err), err.param, err.requestId);
  if (err instanceof APIConnectionError) return body('api_connection_error', 'daemon_unreachable', `${unreachable(err)}; is the daemon running? (${cliName()} daemon status)`, null);
  if (err instanceof UsageError) return body('invalid_request_error', err.code, err.message, err.param);
  if (err instanceof UserError) return body('invalid_request_error', err.code, err.message, null);
  if (err instanceof ErrandError) return body(err.type, err.code, err.message, err.param);
  return body('api_error', 'cli_failure', err instanceof Error ? err.message : String(err), null);
}

/** `error: <message> (code, param) [request id]`: the API's own words first, then what identifies the failure. */
export function formatError(err: unknown): string {
  if (err instanceof APIError) {
    const detail = [err.code, err.param].filter((p): p is string => p !== null && p !== '').join(', ');
    return `error: ${messageOf(err)}${detail ? ` (${detail})` : ''}${err.requestId ? ` [${err.requestId}]` : ''}`;
  }
  if (err instanceof APIConnectionError) return `error: ${unreachable(err)}; is the daemon running? (${cliName()} daemon status)`;
  if (err instanceof UserError) return `error: ${err.message}`;
  if (err instanceof ErrandError) {
    // An error of the core catalogue, raised by an admin command working on the data directory.
    return `error: ${err.message} (${[err.code, err.param].filter(Boolean).join(', ')})`;
  }
  return `error: ${err instanceof Error ? err.message : String(err)}`;
}

/** What went wrong, in a few words for a status line: the API's own words, or why it gave none. */
export function errorText(err: unknown): string {
  if (err instanceof APIError) return messageOf(err);
  if (err instanceof APIConnectionError) return unreachable(err);
  return err instanceof Error ? err.message : String(err);
}

/** The API's own words; of an answer not in its shape (a proxy's page), the start of its text. */
function messageOf(err: APIError): string {
  return err.shaped ? err.apiMessage : err.apiMessage.slice(0, 200);
}

/** `cannot reach the Errand API at <address> (ECONNREFUSED)`: where, and the system's reason in one word if it has one. */
function unreachable(err: APIConnectionError): string {
  const where = err.baseUrl ?? 'its address';
  if (err instanceof APITimeoutError) return `cannot reach the Errand API at ${where} (no answer within ${err.timeoutMs / 1000} s)`;
  const cause = err.cause as { code?: string; message?: string; cause?: { code?: string; message?: string } } | undefined;
  const reason = cause?.cause?.code ?? cause?.cause?.message ?? cause?.code ?? cause?.message ?? err.message;
  return `cannot reach the Errand API at ${where} (${reason})`;
}

export function formatTable<T>(rows: readonly T[], columns: readonly Column<T>[]): string {
  const cells = rows.map((row) => columns.map((c) => truncate(cell(c.value(row)), c.max ?? 60)));
  const widths = columns.map((c, i) => Math.max(c.header.length, ...cells.map((r) => r[i]!.length)));
  const render = (parts: string[]) => parts.map((p, i) => (i === parts.length - 1 ? p : p.padEnd(widths[i]!))).join('  ').trimEnd();
  return `${[render(columns.map((c) => c.header)), ...cells.map(render)].join('\n')}\n`;
}

function cell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined || value === '') return '-';
  return String(value).replace(/\s+/g, ' ');
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
