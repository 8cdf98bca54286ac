import type { ClaimableRun, WaitingOrg } from '../store/runs-store.js';

interface Waiting {
  /** The organisation's oldest queued run not yet claimed or passed over in this claim. */
  run: ClaimableRun;
  running: number;
}

/**
 * The order in which one claim takes queued runs (docs/api.md, Execution): the oldest queued run of the
 * organisation with the fewest running runs, the oldest such run on a tie. So free slots go round the organisations
 * that wait, and one that already runs many waits behind one that runs none, however long its queue or however old
 * its runs; an organisation at `maxPerOrg` running runs gets no more. Nothing running is ever stopped for it.
 */
export class ClaimOrder {
  private readonly waiting: Waiting[];

  constructor(
    orgs: readonly WaitingOrg[],
    private readonly maxPerOrg: number,
    /** The organisation's oldest queued run after `afterId` (runs_queued, organisation by organisation). */
    private readonly nextOf: (orgId: string, afterId: string) => ClaimableRun | undefined,
  ) {
    this.waiting = orgs.filter((org) => org.running < maxPerOrg).map(({ running, ...run }) => ({ run, running }));
  }

  /** The run to claim next; null when no organisation has one left. */
  peek(): ClaimableRun | null {
    let best: Waiting | null = null;
    for (const w of this.waiting) {
      if (best === null || w.running < best.running || (w.running === best.running && w.run.id < best.run.id)) best = w;
    }
    return best?.run ?? null;
  }

  /** `run` was claimed: its organisation runs one more, and offers its next queued run. */
  claimed(run: ClaimableRun): void {
    const w = this.entryOf(run);
    w.running += 1;
    this.advance(w);
  }

  /** `run` stays queued (no host with its label has room, or another daemon took it): its organisation offers its next. */
  passedOver(run: ClaimableRun): void {
    this.advance(this.entryOf(run));
  }

  private advance(w: Waiting): void {
    const next = w.running < this.maxPerOrg ? this.nextOf(w.run.org_id, w.run.id) : undefined;
    if (next === undefined) this.waiting.splice(this.waiting.indexOf(w), 1);
    else w.run = next;
  }

  private entryOf(run: ClaimableRun): Waiting {
    const w = this.waiting.find((x) => x.run.id === run.id);
    if (w === undefined) throw new Error(`run ${run.id} is not the next of its organisation in this claim`);
    return w;
  }
}
