/**
 * Why a run's AbortSignal fired. The dispatcher and the executor abort with one of these as the reason and
 * check it with `instanceof` afterwards, so that every layer below (model call, sandbox, tool) just rethrows.
 */
export abstract class RunStop extends Error {}

/** The run was cancelled through the API; its status is already `cancelled`. */
export class CancelledStop extends RunStop {
  constructor() {
    super('the run was cancelled');
    this.name = 'CancelledStop';
  }
}

/** The run used up its `timeout_s`. */
export class TimeoutStop extends RunStop {
  constructor(readonly timeoutS: number) {
    super(`the run reached its time limit of ${timeoutS} s`);
    this.name = 'TimeoutStop';
  }

  /** The failure_detail of a run stopped by it (a live run's and a test-mode run's alike). */
  get detail(): string {
    return `stopped at the time limit: the run took longer than its timeout_s of ${this.timeoutS} s`;
  }
}

/** The daemon is shutting down and the run did not finish within the grace period; its lease will lapse. */
export class ShutdownStop extends RunStop {
  constructor() {
    super('the daemon is shutting down');
    this.name = 'ShutdownStop';
  }
}

/** The run's lease could not be renewed: it is no longer this worker's (cancelled, or recovered elsewhere). */
export class LeaseLostStop extends RunStop {
  constructor() {
    super("the run's lease was lost");
    this.name = 'LeaseLostStop';
  }
}

/**
 * The run's sandbox host stopped answering (issue 26): the attempt is stopped and its lease lapsed at once, so that
 * the run is re-queued as after a daemon crash and placed on a host that answers.
 */
export class HostLostStop extends RunStop {
  constructor(readonly host: string) {
    super(`the sandbox host ${host} stopped answering`);
    this.name = 'HostLostStop';
  }
}
