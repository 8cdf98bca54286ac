/**
 * The CLI's failure kinds, as gh distinguishes them: a usage error (bad flags; exit 2, with a hint to --help), a
 * user error (the request can't be done as asked; exit 1), and a silent exit (the command already said what
 * happened, e.g. a run that ended as failed, and only the exit code is left to set).
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export class UserError extends Error {
  override readonly name = 'UserError';
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
