import type { OrgModes } from '../orgs/org-modes.js';
import type { SandboxSlot } from '../sandbox/driver.js';
import type { RunRow } from '../store/runs-table.js';

/** What the dispatcher hands a claimed run to: an attempt, carried out to the move that ends it (or stopped). */
export interface AttemptRunner {
  /** `slot`: the sandbox host placed for the run, with several hosts (issue 26), when the run needs a sandbox. */
  execute(run: RunRow, controller: AbortController, slot?: SandboxSlot): Promise<void>;
  /** Whether the run's attempt starts a sandbox, so that the dispatcher places it on a host with room first. */
  needsSandbox(run: Pick<RunRow, 'org_id'>): boolean;
  /** Removes sandboxes a previous daemon left behind; called once before the first run is claimed. */
  removeOrphanedSandboxes(): Promise<number>;
}

/**
 * The runner of a run's mode (issue 25): a live organisation's runs go to the run executor (model, sandbox,
 * browser), a test-mode twin's to the test-mode runner (src/test-mode/), which starts none of them.
 */
export class RunnersByMode implements AttemptRunner {
  constructor(
    private readonly modes: OrgModes,
    private readonly live: Omit<AttemptRunner, 'needsSandbox'>,
    private readonly test: Pick<AttemptRunner, 'execute'>,
  ) {}

  execute(run: RunRow, controller: AbortController, slot?: SandboxSlot): Promise<void> {
    return this.modes.livemode(run.org_id) ? this.live.execute(run, controller, slot) : this.test.execute(run, controller);
  }

  needsSandbox(run: Pick<RunRow, 'org_id'>): boolean {
    return this.modes.livemode(run.org_id);
  }

  removeOrphanedSandboxes(): Promise<number> {
    return this.live.removeOrphanedSandboxes();
  }
}
