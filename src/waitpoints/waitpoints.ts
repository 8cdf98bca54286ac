import type { RunTimeLimit } from '../agent-tools/agent-tool.js';
import { isoTime } from '../clock.js';
import { ConflictError } from '../errors.js';
import type { Resources } from '../resources.js';
import type { TransitionHook } from '../runs/run-change.js';
import type { RunsService } from '../runs/runs-service.js';
import { runMoves } from '../runs/state-machine.js';
import type { StoredWaitingFor } from '../runs/waiting-for.js';
import type { RunRow } from '../store/runs-table.js';
import type { UnitOfWork } from '../store/unit-of-work.js';
import type { WaitpointRow } from '../store/waitpoints-store.js';
import type { RunTracing } from '../tracing/run-tracing.js';
import type { WaitpointKind, WaitpointStatus, WaitpointTimer } from '../vocabulary/waits.js';
import { waitpointLifecycle } from './waitpoint-lifecycle.js';

/** How often a blocked attempt looks at its waitpoint besides being told: another process may end it. */
const LOOK_EVERY_MS = 1000;

/** A waitpoint to open: what it waits for, whether the run's timer runs meanwhile, and until when. */
export interface WaitSpec {
  kind: WaitpointKind;
  timer: WaitpointTimer;
  /** When it expires if nothing came; null: only its completion or the attempt's end ends it. */
  expiresAtMs: number | null;
  /** What `waiting_for` shows of it besides the common members (a person's question, who holds the browser). */
  detail: Omit<StoredWaitingFor, 'waitpoint_id' | 'on' | 'timer' | 'since' | 'expires_at'>;
  /** A person's wait: the request it is. */
  requestId?: string;
  /** When it began, when its cause has a time of its own (a request's asked_at); now by default. */
  sinceMs?: number;
}

/** What a blocked attempt needs: its stop, and its run's time limit, which stops while a person is waited for. */
export interface WaitContext {
  signal: AbortSignal;
  timeLimit: RunTimeLimit;
}

/**
 * What running runs wait for (issue 32, item 4; docs/api.md, "What a run waits for"): the one way a run waits,
 * whatever for. A waitpoint is a stored row with a lifecycle (waitpoint-lifecycle.ts), opened in the unit of work
 * of what asks for it; the run's `waiting_for` shows the oldest one still waiting. It ends completed (what it
 * waited for came), expired (its time ran out) or abandoned (the attempt that waited ended first: the run was
 * cancelled, timed out, or re-queued after its daemon stopped). An attempt blocks on one with `block`, the run's
 * timer stopped meanwhile when the waitpoint says so.
 */
export class Waitpoints {
  constructor(
    private readonly r: Resources,
    private readonly o: { runs: RunsService; tracing: RunTracing },
  ) {}

  /**
   * Opens a waitpoint of the run's current attempt in `uow`; the run's `waiting_for` shows it unless an older one
   * waits. Throws a ConflictError when the run is no longer this attempt's and running.
   */
  open(uow: UnitOfWork, run: RunRow, spec: WaitSpec): WaitpointRow {
    const now = spec.sinceMs ?? this.r.clock.now();
    const row: WaitpointRow = {
      id: this.r.ids('wp'),
      org_id: run.org_id,
      run_id: run.id,
      attempt: run.attempt,
      kind: spec.kind,
      status: 'waiting',
      timer: spec.timer,
      request_id: spec.requestId ?? null,
      detail: JSON.stringify(spec.detail),
      created_at: isoTime(now),
      expires_at: spec.expiresAtMs === null ? null : isoTime(spec.expiresAtMs),
      ended_at: null,
      ended_why: null,
    };
    const current = this.o.runs.row(run.org_id, run.id);
    if (current.status !== 'running' || current.attempt !== run.attempt) throw new ConflictError('not_running', `Run ${run.id} is no longer running this attempt`);
    this.r.store.waitpoints.insert(uow, row);
    if (current.waiting_for === null) this.show(uow, run.id, row, run.lease_owner);
    return row;
  }

  /**
   * Ends a waitpoint still waiting, in `uow`: `waiting_for` moves on to the next one still waiting, or clears.
   * False when it had ended already (another end came first: an answer and an expiry race, and one wins).
   */
  end(uow: UnitOfWork, id: string, to: Exclude<WaitpointStatus, 'waiting'>, why: string): boolean {
    const ended = this.r.store.waitpoints.end(uow, id, waitpointLifecycle.move('waiting', to), isoTime(this.r.clock.now()), why);
    if (!ended) return false;
    const row = this.r.store.waitpoints.get(id)!;
    this.showNext(uow, row.org_id, row.run_id);
    const wake = (): void => this.r.events.emit('wake.waitpoint_ended', { waitpointId: id, runId: row.run_id });
    uow.afterCommit(wake);
    // A wait is a span of the attempt that waited, from its opening to its end.
    if (this.o.tracing.enabled) uow.afterCommit(() => this.o.tracing.waitEnded(this.r.store.runs.getById(row.run_id)!, row));
    return true;
  }

  /**
   * Waits until the waitpoint ends (its completer ends it, or it expires here at `expires_at`, with `onExpire` in the
   * same unit of work), and answers the ended row. The run's timer stops meanwhile when the waitpoint says so. When
   * the attempt stops first, the waitpoint is abandoned and the signal's reason thrown.
   */
  async block(waitpoint: WaitpointRow, ctx: WaitContext, onExpire?: (uow: UnitOfWork) => void): Promise<WaitpointRow> {
    const resume = waitpoint.timer === 'stopped' ? ctx.timeLimit.suspend() : () => undefined;
    try {
      return await this.untilEnded(waitpoint, ctx.signal, onExpire);
    } catch (err) {
      if (ctx.signal.aborted) this.r.store.transaction((uow) => this.end(uow, waitpoint.id, 'abandoned', `the attempt stopped: ${reasonOf(ctx.signal.reason)}`));
      throw err;
    } finally {
      resume();
    }
  }

  /**
   * Opens a waitpoint, runs `until` while it waits, and ends it with what `until` found (completed, in its words), or
   * as expired when it found nothing: what a tool that waits for something of its own (an email) does.
   */
  async during<T>(run: RunRow, spec: WaitSpec, ctx: WaitContext, until: (signal: AbortSignal) => Promise<{ value: T; why: string } | null>): Promise<T | null> {
    const waitpoint = this.r.store.transaction((uow) => this.open(uow, run, spec));
    const resume = waitpoint.timer === 'stopped' ? ctx.timeLimit.suspend() : () => undefined;
    try {
      const found = await until(ctx.signal);
      this.r.store.transaction((uow) => this.end(uow, waitpoint.id, found === null ? 'expired' : 'completed', found === null ? 'nothing came in time' : found.why));
      return found === null ? null : found.value;
    } catch (err) {
      this.r.store.transaction((uow) => this.end(uow, waitpoint.id, 'abandoned', ctx.signal.aborted ? `the attempt stopped: ${reasonOf(ctx.signal.reason)}` : `the wait failed: ${reasonOf(err)}`));
      throw err;
    } finally {
      resume();
    }
  }

  /** The run's waitpoints still waiting, oldest first. */
  waitingOf(runId: string): WaitpointRow[] {
    return this.r.store.waitpoints.waitingOf(runId);
  }

  /**
   * A run that leaves `running` (it ends, or is re-queued after its daemon stopped) abandons its attempt's
   * waitpoints, in the unit of work of that move: a later attempt never finds one of its own still waiting.
   */
  readonly endHook: TransitionHook = (change, uow) => {
    if (change.from !== 'running' || change.to === 'running') return;
    const why = change.to === 'queued' ? 'the attempt ended: the daemon running it stopped, and the run was queued again' : `the run ended as ${change.to}`;
    const ended = this.r.store.waitpoints.endRun(uow, change.run.id, waitpointLifecycle.move('waiting', 'abandoned'), isoTime(this.r.clock.now()), why);
    if (ended > 0) uow.afterCommit(() => this.r.events.emit('wake.waitpoint_ended', { waitpointId: null, runId: change.run.id }));
  };

  private untilEnded(waitpoint: WaitpointRow, signal: AbortSignal, onExpire: ((uow: UnitOfWork) => void) | undefined): Promise<WaitpointRow> {
    const { store, clock, events } = this.r;
    return new Promise<WaitpointRow>((resolve, reject) => {
      let expiry: NodeJS.Timeout | undefined;
      const poll = setInterval(() => look(), LOOK_EVERY_MS);
      const unsubscribe = events.on('wake.waitpoint_ended', (event) => {
        if (event.runId === waitpoint.run_id) look();
      });
      const done = (): void => {
        clearTimeout(expiry);
        clearInterval(poll);
        unsubscribe();
        signal.removeEventListener('abort', stopped);
      };
      const stopped = (): void => {
        done();
        reject(signal.reason as Error);
      };
      const look = (): void => {
        const row = store.waitpoints.get(waitpoint.id);
        if (row !== undefined && row.status !== 'waiting') {
          done();
          resolve(row);
        }
      };
      const expire = (): void => {
        // What it waited for, committed just before the timer fired, wins: the end is a compare-and-set.
        store.transaction((uow) => {
          if (this.end(uow, waitpoint.id, 'expired', 'nothing came in time')) onExpire?.(uow);
        });
        look();
      };
      if (waitpoint.expires_at !== null) expiry = setTimeout(expire, Math.max(0, Date.parse(waitpoint.expires_at) - clock.now()));
      signal.addEventListener('abort', stopped, { once: true });
      if (signal.aborted) return stopped();
      look();
    });
  }

  /** `waiting_for` names `row`: the run pauses on it. */
  private show(uow: UnitOfWork, runId: string, row: WaitpointRow, leaseOwner: string | null): void {
    const shown: StoredWaitingFor = { waitpoint_id: row.id, on: row.kind, timer: row.timer, since: row.created_at, expires_at: row.expires_at, ...(JSON.parse(row.detail) as object) };
    if (this.o.runs.apply(uow, runMoves.pause({ runId, waitingFor: JSON.stringify(shown), leaseOwner })) === null) {
      throw new ConflictError('not_running', `Run ${runId} is no longer running`);
    }
  }

  /** After a waitpoint ended: `waiting_for` shows the oldest one still waiting, or nothing. */
  private showNext(uow: UnitOfWork, orgId: string, runId: string): void {
    const run = this.o.runs.row(orgId, runId);
    if (run.status !== 'running') return;
    const next = this.r.store.waitpoints.waitingOf(runId)[0];
    const shown = run.waiting_for === null ? null : (JSON.parse(run.waiting_for) as StoredWaitingFor).waitpoint_id;
    if (shown === (next?.id ?? null)) return;
    if (shown !== null) this.o.runs.apply(uow, runMoves.resume({ runId, leaseOwner: null }));
    if (next !== undefined) this.show(uow, runId, next, null);
  }
}

function reasonOf(reason: unknown): string {
  return reason instanceof Error ? reason.message : String(reason);
}
