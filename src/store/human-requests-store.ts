import type { AnswerChannel, HumanKind, HumanObstacle } from '../vocabulary/waits.js';
import type { StatusMove } from '../lifecycle.js';
import type { Db } from './database.js';
import type { UnitOfWork } from './unit-of-work.js';

/**
 * waiting until answered, expired (nobody answered within human_timeout_s) or ended (the attempt ended first); an
 * ended one may still be answered, for the run's next attempt (human-request-lifecycle.ts).
 */
export type HumanRequestStatus = 'waiting' | 'answered' | 'expired' | 'ended';

/** One request of a run's agent for a person (migration 024). */
export interface HumanRequestRow {
  id: string;
  org_id: string;
  run_id: string;
  attempt: number;
  kind: HumanKind;
  question: string;
  obstacle: HumanObstacle | null;
  status: HumanRequestStatus;
  asked_at: string;
  expires_at: string;
  email_id: string | null;
  answer: string | null;
  /** 1 approved, 0 denied; null unless an approve request was answered. */
  approved: number | null;
  note: string | null;
  answered_by: string | null;
  answered_via: AnswerChannel | null;
  answered_at: string | null;
  /** The request of an earlier attempt that this one asks again (migration 032). */
  asked_again_of: string | null;
}

export type NewHumanRequestRow = Omit<HumanRequestRow, 'status' | 'email_id' | 'answer' | 'approved' | 'note' | 'answered_by' | 'answered_via' | 'answered_at'>;

export interface HumanAnswerRow {
  answer: string | null;
  approved: number | null;
  note: string | null;
  answered_by: string;
  answered_via: AnswerChannel;
  answered_at: string;
}

/** The requests of runs' agents for a person. Every status change is a checked move (human-request-lifecycle.ts), compare-and-set on its `from`. */
export class HumanRequestsStore {
  private readonly s;

  constructor(db: Db) {
    this.s = {
      insert: db.prepare(
        `INSERT INTO human_requests (id, org_id, run_id, attempt, kind, question, obstacle, asked_at, expires_at, asked_again_of)
         VALUES (@id, @org_id, @run_id, @attempt, @kind, @question, @obstacle, @asked_at, @expires_at, @asked_again_of)`,
      ),
      get: db.prepare<{ id: string }, HumanRequestRow>('SELECT * FROM human_requests WHERE id = @id'),
      byEmail: db.prepare<{ email_id: string }, HumanRequestRow>('SELECT * FROM human_requests WHERE email_id = @email_id'),
      setEmail: db.prepare<{ id: string; email_id: string }>('UPDATE human_requests SET email_id = @email_id WHERE id = @id'),
      answer: db.prepare(
        `UPDATE human_requests SET status = @to, answer = @answer, approved = @approved, note = @note, answered_by = @answered_by,
         answered_via = @answered_via, answered_at = @answered_at WHERE id = @id AND status = @from`,
      ),
      move: db.prepare<{ id: string; from: HumanRequestStatus; to: HumanRequestStatus }>('UPDATE human_requests SET status = @to WHERE id = @id AND status = @from'),
      endRun: db.prepare<{ run_id: string; from: HumanRequestStatus; to: HumanRequestStatus }>('UPDATE human_requests SET status = @to WHERE run_id = @run_id AND status = @from'),
      approvedFor: db.prepare<{ run_id: string; attempt: number }, { n: number }>(
        `SELECT COUNT(*) AS n FROM human_requests WHERE run_id = @run_id AND attempt = @attempt AND kind = 'approve' AND approved = 1`,
      ),
      sameEarlier: db.prepare<{ run_id: string; attempt: number; kind: HumanKind; question: string }, HumanRequestRow>(
        `SELECT * FROM human_requests INDEXED BY human_requests_run WHERE run_id = @run_id AND attempt < @attempt AND kind = @kind AND question = @question
         ORDER BY asked_at DESC`,
      ),
      answeredBefore: db.prepare<{ run_id: string; attempt: number }, HumanRequestRow>(
        `SELECT * FROM human_requests INDEXED BY human_requests_run WHERE run_id = @run_id AND attempt < @attempt AND status = 'answered' ORDER BY asked_at`,
      ),
      askedAgain: db.prepare<{ asked_again_of: string }, HumanRequestRow>('SELECT * FROM human_requests WHERE asked_again_of = @asked_again_of AND asked_again_of IS NOT NULL'),
    };
  }

  insert(_uow: UnitOfWork, row: NewHumanRequestRow): void {
    this.s.insert.run(row);
  }

  get(id: string): HumanRequestRow | undefined {
    return this.s.get.get({ id });
  }

  /** The request whose notification email this is, if any. */
  byEmail(emailId: string): HumanRequestRow | undefined {
    return this.s.byEmail.get({ email_id: emailId });
  }

  setEmail(id: string, emailId: string): void {
    this.s.setEmail.run({ id, email_id: emailId });
  }

  /** Records the answer of a request still in `move.from`; false when it is not. */
  answer(_uow: UnitOfWork, id: string, move: StatusMove<HumanRequestStatus>, answer: HumanAnswerRow): boolean {
    return this.s.answer.run({ id, from: move.from, to: move.to, ...answer }).changes > 0;
  }

  /** Moves a request still in `move.from` (an expiry); false when it is not. */
  move(_uow: UnitOfWork, id: string, move: StatusMove<HumanRequestStatus>): boolean {
    return this.s.move.run({ id, from: move.from, to: move.to }).changes > 0;
  }

  /** Moves every request of a run still in `move.from` (the run left `running`). */
  endRun(_uow: UnitOfWork, runId: string, move: StatusMove<HumanRequestStatus>): void {
    this.s.endRun.run({ run_id: runId, from: move.from, to: move.to });
  }

  /** Whether a person approved a request of this attempt of the run. */
  hasApproval(runId: string, attempt: number): boolean {
    return (this.s.approvedFor.get({ run_id: runId, attempt })?.n ?? 0) > 0;
  }

  /** The run's requests of earlier attempts that asked exactly this, newest first. */
  sameEarlier(runId: string, attempt: number, kind: HumanKind, question: string): HumanRequestRow[] {
    return this.s.sameEarlier.all({ run_id: runId, attempt, kind, question });
  }

  /** The run's requests of attempts before `attempt` that a person answered, oldest first. */
  answeredBefore(runId: string, attempt: number): HumanRequestRow[] {
    return this.s.answeredBefore.all({ run_id: runId, attempt });
  }

  /** The request that asks `requestId` again, if a later attempt did. */
  askedAgain(requestId: string): HumanRequestRow | undefined {
    return this.s.askedAgain.get({ asked_again_of: requestId });
  }
}
