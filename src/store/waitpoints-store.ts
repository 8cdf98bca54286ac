import type { StatusMove } from '../lifecycle.js';
import type { WaitpointKind, WaitpointStatus, WaitpointTimer } from '../vocabulary/waits.js';
import type { Db } from './database.js';
import type { UnitOfWork } from './unit-of-work.js';


/** One thing a running attempt waits for (migration 032). */
export interface WaitpointRow {
  id: string;
  org_id: string;
  run_id: string;
  attempt: number;
  kind: WaitpointKind;
  status: WaitpointStatus;
  timer: WaitpointTimer;
  request_id: string | null;
  /** What it waits for, as `waiting_for` shows it (JSON). */
  detail: string;
  created_at: string;
  expires_at: string | null;
  ended_at: string | null;
  ended_why: string | null;
}

export type NewWaitpointRow = Omit<WaitpointRow, 'status' | 'ended_at' | 'ended_why'>;

/** Runs' waitpoints. A status changes only by a checked move of waitpoint-lifecycle.ts, compare-and-set on its `from`. */
export class WaitpointsStore {
  private readonly s;

  constructor(db: Db) {
    this.s = {
      insert: db.prepare<NewWaitpointRow>(
        `INSERT INTO waitpoints (id, org_id, run_id, attempt, kind, timer, request_id, detail, created_at, expires_at)
         VALUES (@id, @org_id, @run_id, @attempt, @kind, @timer, @request_id, @detail, @created_at, @expires_at)`,
      ),
      get: db.prepare<{ id: string }, WaitpointRow>('SELECT * FROM waitpoints WHERE id = @id'),
      ofRequest: db.prepare<{ request_id: string }, WaitpointRow>('SELECT * FROM waitpoints WHERE request_id = @request_id'),
      ofRun: db.prepare<{ run_id: string }, WaitpointRow>('SELECT * FROM waitpoints WHERE run_id = @run_id ORDER BY status, id'),
      waitingOf: db.prepare<{ run_id: string }, WaitpointRow>("SELECT * FROM waitpoints WHERE run_id = @run_id AND status = 'waiting' ORDER BY id"),
      end: db.prepare<{ id: string; from: WaitpointStatus; to: WaitpointStatus; ended_at: string; ended_why: string }>(
        'UPDATE waitpoints SET status = @to, ended_at = @ended_at, ended_why = @ended_why WHERE id = @id AND status = @from',
      ),
      endRun: db.prepare<{ run_id: string; from: WaitpointStatus; to: WaitpointStatus; ended_at: string; ended_why: string }>(
        'UPDATE waitpoints SET status = @to, ended_at = @ended_at, ended_why = @ended_why WHERE run_id = @run_id AND status = @from',
      ),
    };
  }

  insert(_uow: UnitOfWork, row: NewWaitpointRow): void {
    this.s.insert.run(row);
  }

  get(id: string): WaitpointRow | undefined {
    return this.s.get.get({ id });
  }

  /** The waitpoint of a person's request. */
  ofRequest(requestId: string): WaitpointRow | undefined {
    return this.s.ofRequest.get({ request_id: requestId });
  }

  /** Every waitpoint of the run, by status, oldest first within each. */
  ofRun(runId: string): WaitpointRow[] {
    return this.s.ofRun.all({ run_id: runId });
  }

  /** The run's waitpoints still waiting, oldest first. */
  waitingOf(runId: string): WaitpointRow[] {
    return this.s.waitingOf.all({ run_id: runId });
  }

  /** Ends a waitpoint still in `move.from`; false when it was not (another end came first). */
  end(_uow: UnitOfWork, id: string, move: StatusMove<WaitpointStatus>, at: string, why: string): boolean {
    return this.s.end.run({ id, from: move.from, to: move.to, ended_at: at, ended_why: why }).changes > 0;
  }

  /** Ends every waitpoint of the run still in `move.from` (its attempt ended); answers how many. */
  endRun(_uow: UnitOfWork, runId: string, move: StatusMove<WaitpointStatus>, at: string, why: string): number {
    return this.s.endRun.run({ run_id: runId, from: move.from, to: move.to, ended_at: at, ended_why: why }).changes;
  }
}
