/**
 * The CLI's failure kinds, as gh distinguishes them: a usage error (bad flags, arguments or ERRAND_* variables;
 * exit 2, with a hint to --help), a user error (the request can't be done as asked; exit 1), and a silent exit (the
 * command already said what happened, e.g. a run that ended as failed, and only the exit code is left to set).
 * Each has a `code`, which `--json` error output carries like the API's own codes.
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  constructor(
    message: string,
    readonly code = 'usage_error',
    readonly param: string | null = null,
  ) {
    super(message);
  }
}

export class UserError extends Error {
  override readonly name = 'UserError';
  constructor(
    message: string,
    readonly code = 'cli_error',
  ) {
    super(message);
  }
}

export class SilentExit extends Error {
  override readonly name = 'SilentExit';
  constructor(readonly exitCode: number) {
    super(`exit ${exitCode}`);
  }
}

export const EXIT_OK = 0;
export const EXIT_ERROR = 1;
export const EXIT_USAGE = 2;
