/** How much longer than when the daemon is quiet the purge rests while it is busy. */
export const BUSY_REST_MULTIPLE = 8;
/** The share of a rest that other work kept the event loop busy above which the daemon counts as busy. */
export const BUSY_UTILIZATION = 0.5;

/**
 * How long the purge rests after a batch: `factor` times as long as the batch took, so that it takes at most
 * 1 / (1 + factor) of the event loop. The factor follows the daemon's load, measured as the share of each rest that
 * other work kept the event loop busy: it doubles after a busy rest, up to BUSY_REST_MULTIPLE times the quiet factor
 * (a purge then takes little from a busy API), and halves back after a quiet one (it goes at full pace on a quiet
 * daemon).
 */
export class PurgePace {
  private factor: number;

  constructor(private readonly quietFactor: number) {
    this.factor = quietFactor;
  }

  restMs(batchMs: number): number {
    return Math.max(1, batchMs * this.factor);
  }

  /** What the last rest saw: the share (0 to 1) of it during which the event loop was busy with other work. */
  observed(busyShare: number): void {
    this.factor = busyShare > BUSY_UTILIZATION
      ? Math.min(this.quietFactor * BUSY_REST_MULTIPLE, this.factor * 2)
      : Math.max(this.quietFactor, this.factor / 2);
  }
}
