export type SandboxErrorCode =
  /** Anything not covered below, e.g. a sandbox image that could not be built. */
  | 'failed'
  /** The supervisor could not be reached or did not answer with the protocol. */
  | 'unreachable'
  /** The supervisor did not start, or did not become healthy in time. */
  | 'start_failed'
  | 'unauthorized'
  | 'bad_request'
  | 'not_found'
  | 'payload_too_large'
  /** The live view's input came before the browser had a page. */
  | 'no_page'
  /** The supervisor failed while handling a valid request. */
  | 'supervisor_error'
  /** The sandbox was destroyed. */
  | 'destroyed';

export interface SandboxErrorOptions {
  code?: SandboxErrorCode;
  /** HTTP status from the supervisor, when it answered. */
  status?: number;
  cause?: unknown;
}

/** A sandbox operation that failed; the engine decides whether the run can go on. */
export class SandboxError extends Error {
  readonly code: SandboxErrorCode;
  readonly status: number | null;

  constructor(message: string, options: SandboxErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SandboxError';
    this.code = options.code ?? 'failed';
    this.status = options.status ?? null;
  }
}
