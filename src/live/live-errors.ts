import { ConflictError, ErrandError, RateLimitError } from '../errors.js';
import type { TerminalStatus } from '../vocabulary/run-status.js';

/** How a run ended, as a sentence: what the live page shows once its run has ended. */
export const RUN_ENDED_SENTENCE: Record<TerminalStatus, string> = {
  succeeded: 'The run succeeded.',
  failed: 'The run failed.',
  cancelled: 'The run was cancelled.',
};

/** A live link presented for a run other than its own: 403, since the link is genuine but grants nothing here. */
export class LiveLinkOtherRunError extends ErrandError {
  readonly type = 'invalid_request_error';
  readonly status = 403;
  constructor(runId: string) {
    super('live_link_other_run', `This live link is for another run, not ${runId}: a live link grants its own run only`);
  }
}

/** A live link of a run whose links were revoked (POST /v1/runs/{id}/live/revoke) since it was made. */
export class LiveLinkRevokedError extends ErrandError {
  readonly type = 'invalid_request_error';
  readonly status = 403;
  constructor() {
    super('live_link_revoked', "This live link was revoked. Whoever holds the run's API key can hand out a new one (GET /v1/runs/{id})");
  }
}

/**
 * A live link of a run that has ended: 410, since it will never grant anything again (docs/api.md, Live view). The
 * message says how the run ended and nothing more; the run's API key reads the rest.
 */
export class LiveLinkRunEndedError extends ErrandError {
  readonly type = 'invalid_request_error';
  readonly status = 410;
  constructor(runId: string, status: TerminalStatus) {
    super('live_link_run_ended', `${RUN_ENDED_SENTENCE[status]} Its live view has ended with it: a live link grants nothing once its run (${runId}) has ended`);
  }
}

/** The live view needs a running run with its sandbox: 409 before the sandbox is up and after the run ends. */
export class LiveViewUnavailableError extends ConflictError {
  /** `why` continues the sentence: `yet: ...`, `now: ...`, or `: ...`. */
  constructor(runId: string, why: string) {
    super('live_view_unavailable', `Run ${runId} has no live view${why.startsWith(':') ? '' : ' '}${why}`);
  }
}

/** Someone else holds control of the run's browser: only one controller at a time. */
export class ControlHeldError extends ConflictError {
  constructor(sinceIso: string) {
    super('control_held', `Someone else has held control of this run's browser since ${sinceIso}; only one person controls it at a time. Watch until they hand it back`);
  }
}

/** Input or a hand-back from someone who does not hold control (never took it, handed it back, or was revoked). */
export class NotInControlError extends ConflictError {
  constructor() {
    super('not_in_control', "You do not hold control of this run's browser: take control first (POST /v1/runs/{id}/live/control)");
  }
}

/** One more frame stream than a run allows, or than its live links may have together. */
export class TooManyViewersError extends RateLimitError {
  constructor(open: string) {
    super('too_many_viewers', `This run's live view is open ${open} already, the most it allows; close one, then retry`, 5);
  }
}
