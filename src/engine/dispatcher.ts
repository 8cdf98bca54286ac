import type { Resources } from '../resources.js';
import type { RunsService } from '../runs/runs-service.js';
import { runMoves } from '../runs/state-machine.js';
import type { RunRow } from '../store/runs-table.js';
import type { AttemptRunner } from './attempt-runner.js';
import type { SandboxPlacement, SandboxSlot } from '../sandbox/driver.js';
import { ClaimOrder } from './claim-order.js';
import { CancelledStop, HostLostStop, LeaseLostStop, ShutdownStop } from '../runs/run-stop.js';

export interface DispatcherOptions {
  /** Written into `lease_owner`: which daemon process holds a running run. */
  instanceId: string;
  /** How often to look for queued runs besides being woken by events. Default 1 s. */
  pollIntervalMs?: number;
  /** How long `close()` lets in-flight runs finish before it stops them. Default 5 s. */
  shutdownGraceMs?: number;
}

interface ActiveRun {
  controller: AbortController;
  done: Promise<void>;
  /** Where the run was placed, with several sandbox hosts. */
  slot: SandboxSlot | undefined;
  /** Whether its attempt starts a sandbox: which of the two bounds it counts against. */
  sandboxed: boolean;
}

interface Claimed {
  run: RunRow;
  slot: SandboxSlot | undefined;
  sandboxed: boolean;
}

/** Queued runs one claim passes over because no host with their label has room, before it gives up. */
const MAX_PASSED_OVER = 64;

/**
 * The engine's worker, shaped like BullMQ's: claims queued runs under a lease, renews the leases at a third of
 * `limits.lease_s`, and recovers runs whose lease lapsed because the daemon running them died: re-queued while
 * attempts remain (`limits.max_attempts`), failed after that. Loop errors are logged, not thrown.
 *
 * Two bounds, each in total here and per organisation: runs that start a sandbox, at most
 * `limits.max_concurrent_runs`, and runs that start none (test mode's), at most `limits.max_concurrent_test_runs`,
 * so that free test-mode runs never take a slot a live run could use. Within each, a free slot goes to the
 * organisation with the fewest running runs (`ClaimOrder`), so one organisation's queue never holds back another's.
 *
 * Shutdown (`close()`): no new claims; in-flight runs get a short grace to finish, then are stopped (their
 * sandboxes removed) and left `running` with their lease, which lapses so that the next start re-queues them as
 * a new attempt. Re-queuing them at once would look tidier, but a SIGKILL gets no such chance, and one recovery
 * path that is always exercised beats two. Nothing is charged twice: spend is recorded per model call as it
 * returns (see RunRecorder), so a retried attempt adds only its own calls.
 */
export class Dispatcher {
  private readonly active = new Map<string, ActiveRun>();
  private readonly leaseMs: number;
  private timers: NodeJS.Timeout[] = [];
  private unsubscribe: (() => void) | null = null;
  private pumpScheduled = false;
  /**
   * Whether each bound may have queued runs to claim: set when one of its runs is queued or stops running here, and at
   * each poll (for what another process did); cleared by a claim that found none it could take. So a full bound's traffic (every POST
   * /v1/runs wakes the pump) costs the other bound no query while nothing of its own waits.
   */
  private readonly mayHaveQueued = { sandboxed: true, unsandboxed: true };
  private started = false;
  private closing: Promise<void> | null = null;

  constructor(
    private readonly r: Resources,
    /**
     * `placement`: the driver's, with several sandbox hosts (issue 26); runs that need a sandbox are claimed only when
     * a host has room.
     */
    private readonly deps: { runs: RunsService; executor: AttemptRunner; placement?: SandboxPlacement | undefined },
    private readonly options: DispatcherOptions,
  ) {
    this.leaseMs = r.config['limits.lease_s'] * 1000;
  }

  async start(): Promise<void> {
    if (this.started || this.closing) return;
    this.started = true;
    await this.deps.executor.removeOrphanedSandboxes().catch((err: unknown) => this.r.logger.error({ err }, 'could not remove orphaned sandboxes'));
    if (this.closing) return;
    this.recoverLapsed();
    this.unsubscribe = this.r.events.on('wake.run_transitioned', ({ runId, orgId, from, to }) => {
      if (to === 'cancelled' && from === 'running') this.active.get(runId)?.controller.abort(new CancelledStop());
      if (to === 'queued' || from === 'running') {
        // A run queued, or a slot freed (its organisation's queued runs may have waited at its limit): its bound looks again.
        this.mayHaveQueued[this.deps.executor.needsSandbox({ org_id: orgId }) ? 'sandboxed' : 'unsandboxed'] = true;
        this.schedulePump();
      }
    });
    const unsubscribeHosts = this.deps.placement?.onHostDown((host) => this.hostLost(host));
    if (unsubscribeHosts !== undefined) {
      const unsubscribeRuns = this.unsubscribe;
      this.unsubscribe = () => {
        unsubscribeRuns();
        unsubscribeHosts();
      };
    }
    this.timers.push(setInterval(() => this.heartbeat(), Math.max(100, Math.floor(this.leaseMs / 3))));
    this.timers.push(
      setInterval(() => {
        this.mayHaveQueued.sandboxed = this.mayHaveQueued.unsandboxed = true;
        this.schedulePump();
      }, this.options.pollIntervalMs ?? 1000),
    );
    this.pump();
  }

  /** Idempotent: stops claiming, lets in-flight runs finish within the grace, then stops them (see the class comment). */
  close(): Promise<void> {
    this.closing ??= (async () => {
      const pending = [...this.active.values()];
      if (pending.length > 0) {
        this.r.logger.info({ runs: pending.length }, 'waiting for running runs to finish');
        let timer: NodeJS.Timeout | undefined;
        const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.options.shutdownGraceMs ?? 5_000)));
        await Promise.race([Promise.allSettled(pending.map((a) => a.done)), grace]);
        clearTimeout(timer);
        for (const a of this.active.values()) a.controller.abort(new ShutdownStop());
        await Promise.allSettled([...this.active.values()].map((a) => a.done));
      }
      // Only now: a run cancelled during the grace must still be stopped.
      this.unsubscribe?.();
      for (const t of this.timers) clearInterval(t);
      this.timers = [];
    })();
    return this.closing;
  }

  private schedulePump(): void {
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  /** Claims as many runs as there is room for, and starts them. */
  private pump(): void {
    if (this.closing !== null || !this.started) return;
    const roomIn = (sandboxed: boolean): number => (this.mayHaveQueued[sandboxed ? 'sandboxed' : 'unsandboxed'] ? this.limitOf(sandboxed) - this.activeCount(sandboxed) : 0);
    const room = { sandboxed: roomIn(true), unsandboxed: roomIn(false) };
    if (room.sandboxed <= 0 && room.unsandboxed <= 0) return;
    let runs: Claimed[];
    try {
      runs = this.claim(room);
    } catch (err) {
      this.r.logger.error({ err }, 'could not claim runs');
      return;
    }
    for (const run of runs) this.launch(run);
  }

  private limitOf(sandboxed: boolean): number {
    return this.r.config[sandboxed ? 'limits.max_concurrent_runs' : 'limits.max_concurrent_test_runs'];
  }

  private activeCount(sandboxed: boolean): number {
    let n = 0;
    for (const a of this.active.values()) if (a.sandboxed === sandboxed) n += 1;
    return n;
  }

  /**
   * Up to `room` runs of each bound, in `ClaimOrder`, in one transaction (one commit for all of them). Inside it no
   * other writer can move a run between the read and the compare-and-set; the compare-and-set is what keeps another
   * daemon on the same file from claiming the same run.
   */
  private claim(room: { sandboxed: number; unsandboxed: number }): Claimed[] {
    const { placement, executor } = this.deps;
    const slots: SandboxSlot[] = [];
    try {
      return this.r.store.transaction((uow) => {
        const claimed: Claimed[] = [];
        const waiting = this.r.store.runs.waitingOrgs();
        for (const sandboxed of [true, false]) {
          let left = sandboxed ? room.sandboxed : room.unsandboxed;
          if (left <= 0) continue;
          const order = new ClaimOrder(
            waiting.filter((org) => executor.needsSandbox(org) === sandboxed),
            this.limitOf(sandboxed),
            (orgId, afterId) => this.r.store.runs.nextQueuedOf(orgId, afterId),
          );
          let passedOver = 0;
          if (order.peek() === null) this.mayHaveQueued[sandboxed ? 'sandboxed' : 'unsandboxed'] = false;
          for (let next = order.peek(); next !== null && left > 0; next = order.peek()) {
            let slot: SandboxSlot | undefined;
            if (sandboxed && placement !== undefined) {
              const reserved = placement.reserve(next.sandbox_label);
              // Every host is full: the run waits queued. A run asking for a label whose hosts are full lets those after it by.
              if (reserved === null) {
                if (next.sandbox_label === null || ++passedOver > MAX_PASSED_OVER) break;
                order.passedOver(next);
                continue;
              }
              slot = reserved;
              slots.push(reserved);
            }
            const move = runMoves.claim({ run: next, worker: this.options.instanceId, nowMs: this.r.clock.now(), leaseMs: this.leaseMs, sandboxHost: slot?.host ?? null });
            const run = this.deps.runs.apply(uow, move);
            if (run) {
              claimed.push({ run, slot, sandboxed });
              left -= 1;
              order.claimed(next);
            } else {
              slot?.release();
              order.passedOver(next);
            }
          }
        }
        return claimed;
      });
    } catch (err) {
      for (const slot of slots) slot.release();
      throw err;
    }
  }

  private launch({ run, slot, sandboxed }: Claimed): void {
    const controller = new AbortController();
    const done = this.deps.executor
      .execute(run, controller, slot)
      .catch((err: unknown) => this.r.logger.error({ err, runId: run.id }, 'run executor failed'))
      .finally(() => {
        slot?.release();
        this.active.delete(run.id);
        if (controller.signal.reason instanceof HostLostStop) this.lapse(run, controller.signal.reason);
        this.schedulePump();
      });
    this.active.set(run.id, { controller, done, slot, sandboxed });
  }

  /** Stops the runs placed on a host that stopped answering; each is re-queued once its attempt has stopped. */
  private hostLost(host: string): void {
    for (const a of this.active.values()) {
      if (a.slot?.host === host && !a.controller.signal.aborted) a.controller.abort(new HostLostStop(host));
    }
  }

  /**
   * A run stopped on a lost host: its lease ends now and the recovery of lapsed leases re-queues it (or fails it on
   * its last attempt), the one path a daemon crash takes too. Only after its attempt stopped, so that no two run it.
   */
  private lapse(run: RunRow, stop: HostLostStop): void {
    try {
      if (this.r.store.runs.lapseLease(run.id, this.options.instanceId, this.r.clock.now())) {
        this.r.logger.warn({ runId: run.id, host: stop.host }, 'stopped a run whose sandbox host stopped answering');
        this.recoverLapsed();
      }
    } catch (err) {
      this.r.logger.error({ err, runId: run.id }, 'could not lapse the lease of a run on a lost host');
    }
  }

  private heartbeat(): void {
    const expires = this.r.clock.now() + this.leaseMs;
    for (const [runId, a] of this.active) {
      if (a.controller.signal.aborted) continue;
      try {
        if (!this.r.store.runs.renewLease(runId, this.options.instanceId, expires)) a.controller.abort(new LeaseLostStop());
      } catch (err) {
        this.r.logger.error({ err, runId }, 'could not renew a lease');
      }
    }
    if (this.closing === null) this.recoverLapsed();
  }

  /** Runs whose worker died: another attempt while attempts remain, else failed. */
  private recoverLapsed(): void {
    const maxAttempts = this.r.config['limits.max_attempts'];
    let lapsed: RunRow[];
    try {
      lapsed = this.r.store.runs.listLapsed(this.r.clock.now());
    } catch (err) {
      this.r.logger.error({ err }, 'could not look for lapsed leases');
      return;
    }
    for (const run of lapsed) {
      if (this.active.has(run.id)) continue;
      const attempt = Math.max(1, run.attempt);
      try {
        const retry = attempt < maxAttempts;
        const move = retry ? runMoves.requeue({ run }) : runMoves.fail({ lapsed: run, maxAttempts, nowMs: this.r.clock.now() });
        if (this.r.store.transaction((uow) => this.deps.runs.apply(uow, move)) === null) continue;
        if (retry) this.r.logger.warn({ runId: run.id, attempt: attempt + 1 }, 're-queued a run whose daemon died');
        else this.r.logger.warn({ runId: run.id, attempt }, 'failed a run whose daemon died on its last attempt');
      } catch (err) {
        this.r.logger.error({ err, runId: run.id }, 'could not recover a lapsed run');
      }
    }
  }
}
