import { isoTime } from '../clock.js';
import { Lifecycle, type StatusMove, type TransitionTable } from '../lifecycle.js';
import { toJson } from '../store/json-columns.js';
import type { ClaimableRun } from '../store/runs-store.js';
import type { RunPatch, RunRow } from '../store/runs-table.js';
import type { RunMode } from '../vocabulary/run-modes.js';
import { RUN_STATUSES, type RunStatus } from '../vocabulary/run-status.js';
import { failedOutcome, type FailedOutcome, type RunOutcome, type SucceededOutcome } from './run-outcome.js';

/**
 * A run's moves by name, each with the statuses it starts from and the one it leads to: the run lifecycle of
 * API-DECISIONS.md. The status table derives from them. pause and resume keep the run `running` and set or clear
 * what it waits for (issue 22: a person steps in, or the agent asks for one), so they are no status transition.
 *
 * Adding a move: declare it here, write its builder in `runMoves` (what it writes, and its line in the run's
 * history), and, if it needs a condition the status alone cannot say, its statement in `RunsStore`.
 */
const MOVES = {
  claim: { from: ['queued'], to: 'running' },
  requeue: { from: ['running'], to: 'queued' },
  finish: { from: ['running'], to: 'succeeded' },
  fail: { from: ['running'], to: 'failed' },
  cancel: { from: ['queued', 'running'], to: 'cancelled' },
  pause: { from: ['running'], to: 'running' },
  resume: { from: ['running'], to: 'running' },
} as const satisfies Record<string, { readonly from: readonly RunStatus[]; readonly to: RunStatus }>;

type Moves = typeof MOVES;
export type RunMoveName = keyof Moves;
type FromOf<M extends RunMoveName> = Moves[M]['from'][number];
/** The statuses the moves lead to from `S`; a move that keeps the status is not a transition. */
type TargetsOf<S extends RunStatus> = { [M in RunMoveName]: S extends FromOf<M> ? Exclude<Moves[M]['to'], S> : never }[RunMoveName];

/** The transitions of a run's status, from the moves: a terminal status has none, and its type says so. */
export const RUN_TRANSITIONS = statusTable() as { readonly [S in RunStatus]: readonly TargetsOf<S>[] };

export const runLifecycle = new Lifecycle<RunStatus>('run', RUN_TRANSITIONS);

declare const made: unique symbol;

interface NamedMove<N extends RunMoveName> {
  readonly name: N;
  readonly runId: string;
  /** The move's line in the run's history (`run.status`), or in the daemon's log for pause and resume. */
  readonly description: string;
  /** The worker that must still hold the run's lease for the move to apply; null when any may. */
  readonly leaseOwner: string | null;
  readonly [made]: true;
}

/** A move that changes the status: the checked transition, and the columns written with it. */
export interface StatusRunMove extends NamedMove<'claim' | 'requeue' | 'finish' | 'fail' | 'cancel'> {
  readonly kind: 'status';
  readonly status: StatusMove<RunStatus>;
  readonly patch: RunPatch;
}

/** pause (`waitingFor` set) or resume (null): applies to a run in `during` that is not waiting, or is. */
export interface WaitRunMove extends NamedMove<'pause' | 'resume'> {
  readonly kind: 'wait';
  readonly during: RunStatus;
  readonly waitingFor: string | null;
}

/** What `RunsService.apply` takes; only `runMoves` makes one. */
export type RunMove = StatusRunMove | WaitRunMove;

/** A running run whose worker's lease ran out. */
export type LapsedRun = Pick<RunRow, 'id' | 'attempt' | 'lease_owner'>;

/** How an attempt that was running ends: its worker lets go of the lease, and the run waits for nothing. */
const RELEASED = { lease_owner: null, lease_expires_at: null, waiting_for: null } as const satisfies RunPatch;

/** The named moves: each builds what it writes from one input and answers it, for `RunsService.apply`. */
export const runMoves = {
  /** A worker takes the oldest queued run for an attempt, under a lease. */
  claim(input: { run: ClaimableRun; worker: string; nowMs: number; leaseMs: number; sandboxHost?: string | null }): RunMove {
    const attempt = Math.max(1, input.run.attempt);
    return statusMove('claim', 'queued', {
      runId: input.run.id,
      patch: {
        attempt,
        ...(input.sandboxHost === undefined || input.sandboxHost === null ? {} : { sandbox_host: input.sandboxHost }),
        lease_owner: input.worker,
        lease_expires_at: input.nowMs + input.leaseMs,
        started_at: input.run.started_at ?? isoTime(input.nowMs),
        last_action: 'claimed by a worker',
      },
      description: `claimed by worker ${input.worker} (attempt ${attempt})${input.sandboxHost ? ` for sandbox host ${input.sandboxHost}` : ''}`,
      leaseOwner: null,
    });
  },

  /**
   * Another attempt for a run whose worker died (its lease lapsed). Only while that worker's lease is the run's:
   * a run that another daemon has re-queued and claimed since it was read is left alone.
   */
  requeue(input: { run: LapsedRun }): RunMove {
    const attempt = Math.max(1, input.run.attempt);
    return statusMove('requeue', 'running', {
      runId: input.run.id,
      patch: { attempt: attempt + 1, ...RELEASED, last_action: 're-queued after the daemon running it stopped' },
      description: `lease of worker ${workerOf(input.run)} lapsed (the daemon running attempt ${attempt} stopped); re-queued as attempt ${attempt + 1}`,
      leaseOwner: input.run.lease_owner,
    });
  },

  /** The attempt ended with a result. */
  finish(input: { runId: string; outcome: SucceededOutcome; nowMs: number; leaseOwner: string | null }): RunMove {
    const { outcome } = input;
    return statusMove('finish', 'running', {
      runId: input.runId,
      patch: { ...endPatch(outcome, input.nowMs), result: JSON.stringify(outcome.result), failure_reason: null, failure_detail: null, last_action: 'finished' },
      description: outcome.describedAs ?? finishedBy(outcome.mode ?? 'agent'),
      leaseOwner: input.leaseOwner,
    });
  },

  /**
   * The attempt ended without a result (`outcome`), or the daemon running it died during the last attempt
   * `maxAttempts` allows (`lapsed`).
   */
  fail(input: { runId: string; outcome: FailedOutcome; nowMs: number; leaseOwner: string | null } | { lapsed: LapsedRun; maxAttempts: number; nowMs: number }): RunMove {
    if ('lapsed' in input) {
      const { lapsed } = input;
      const attempt = Math.max(1, lapsed.attempt);
      const detail =
        `the daemon running this run stopped during attempt ${attempt}, the last one allowed (limits.max_attempts is ${input.maxAttempts}); ` +
        'it was not retried again';
      return failMove(lapsed.id, failedOutcome('timeout', detail), input.nowMs, lapsed.lease_owner, `lease of worker ${workerOf(lapsed)} lapsed on the last attempt; failed`);
    }
    const { outcome } = input;
    return failMove(input.runId, outcome, input.nowMs, input.leaseOwner, `failed (${outcome.reason}): ${outcome.detail}`);
  },

  /** Cancelled by request, queued or running. A running agent learns of it through `wake.run_transitioned`. */
  cancel(input: { runId: string; from: FromOf<'cancel'>; nowMs: number }): RunMove {
    return statusMove('cancel', input.from, {
      runId: input.runId,
      patch: { finished_at: isoTime(input.nowMs), ...RELEASED, last_action: 'cancelled' },
      description: 'cancelled by request',
      leaseOwner: null,
    });
  },

  /** The running run waits for what `waitingFor` says (a person); only one that is not waiting already. */
  pause(input: { runId: string; waitingFor: string; leaseOwner: string | null }): RunMove {
    return waitMove('pause', { runId: input.runId, waitingFor: input.waitingFor, description: `waiting for ${input.waitingFor}`, leaseOwner: input.leaseOwner });
  },

  /** The running run no longer waits; only one that is waiting. */
  resume(input: { runId: string; leaseOwner: string | null }): RunMove {
    return waitMove('resume', { runId: input.runId, waitingFor: null, description: 'no longer waiting', leaseOwner: input.leaseOwner });
  },
};

function statusMove<N extends StatusRunMove['name']>(name: N, from: FromOf<N>, fields: Pick<StatusRunMove, 'runId' | 'patch' | 'description' | 'leaseOwner'>): RunMove {
  return { kind: 'status', name, status: runLifecycle.move(from, MOVES[name].to), ...fields } as StatusRunMove;
}

function waitMove(name: WaitRunMove['name'], fields: Pick<WaitRunMove, 'runId' | 'waitingFor' | 'description' | 'leaseOwner'>): RunMove {
  return { kind: 'wait', name, during: MOVES[name].from[0], ...fields } as WaitRunMove;
}

function failMove(runId: string, outcome: FailedOutcome, nowMs: number, leaseOwner: string | null, description: string): RunMove {
  return statusMove('fail', 'running', {
    runId,
    patch: { ...endPatch(outcome, nowMs), result: null, failure_reason: outcome.reason, failure_detail: outcome.detail, last_action: `failed: ${outcome.reason}` },
    description,
    leaseOwner,
  });
}

/** The columns finish and fail both write. */
function endPatch(outcome: RunOutcome, nowMs: number): RunPatch {
  return {
    confidence: outcome.confidence,
    evidence: toJson(outcome.evidence),
    warnings: JSON.stringify(outcome.warnings),
    mode: outcome.mode ?? 'agent',
    finished_at: isoTime(nowMs),
    ...RELEASED,
  };
}

function workerOf(run: LapsedRun): string {
  return run.lease_owner ?? '?';
}

function statusTable(): TransitionTable<RunStatus> {
  const table = Object.fromEntries(RUN_STATUSES.map((s) => [s, [] as RunStatus[]])) as Record<RunStatus, RunStatus[]>;
  for (const { from, to } of Object.values(MOVES) as { from: readonly RunStatus[]; to: RunStatus }[]) {
    for (const f of from) if (f !== to && !table[f].includes(to)) table[f].push(to);
  }
  return table;
}

/** How a run that succeeded got its result, as its `run.status` event describes it. */
function finishedBy(mode: RunMode): string {
  switch (mode) {
    case 'agent':
      return 'the agent finished with a result';
    case 'replay':
      return "replayed from the job's recipe, with no model call";
    case 'replay_then_agent':
      return "the agent finished with a result, having taken over the replay of the job's recipe where the page changed";
    default: {
      const unknown: never = mode;
      throw new Error(`unknown run mode ${String(unknown)}`);
    }
  }
}
