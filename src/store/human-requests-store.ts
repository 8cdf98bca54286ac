import type { Db } from './database.js';
import type { UnitOfWork } from './unit-of-work.js';

export type HumanKind = 'takeover' | 'answer' | 'approve';
export type HumanObstacle = 'captcha' | 'login' | 'other';
/** waiting until answered, expired (nobody answered within human_timeout_s) or ended (the run ended first). */
export type HumanRequestStatus = 'waiting' | 'answered' | 'expired' | 'ended';
/** Where an answer came from. */
export type AnswerChannel = 'api' | 'cli' | 'mcp' | 'email' | 'live';

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

/** The requests of runs' agents for a person. Every status change is a compare-and-set on `waiting`. */
export class HumanRequestsStore {
  private readonly s;

  constructor(db: Db) {
    this.s = {
      insert: db.prepare(
        `INSERT INTO human_requests (id, org_id, run_id, attempt, kind, question, obstacle, asked_at, expires_at)
         VALUES (@id, @org_id, @run_id, @attempt, @kind, @question, @obstacle, @asked_at, @expires_at)`,
      ),
      get: db.prepare<{ id: string }, HumanRequestRow>('SELECT * FROM human_requests WHERE id = @id'),
      byEmail: db.prepare<{ email_id: string }, HumanRequestRow>('SELECT * FROM human_requests WHERE email_id = @email_id'),
      setEmail: db.prepare<{ id: string; email_id: string }>('UPDATE human_requests SET email_id = @email_id WHERE id = @id'),
      answer: db.prepare(
        `UPDATE human_requests SET status = 'answered', answer = @answer, approved = @approved, note = @note, answered_by = @answered_by,
         answered_via = @answered_via, answered_at = @answered_at WHERE id = @id AND status = 'waiting'`,
      ),
      close: db.prepare<{ id: string; status: HumanRequestStatus }>(`UPDATE human_requests SET status = @status WHERE id = @id AND status = 'waiting'`),
      endRun: db.prepare<{ run_id: string }>(`UPDATE human_requests SET status = 'ended' WHERE run_id = @run_id AND status = 'waiting'`),
      approvedFor: db.prepare<{ run_id: string; attempt: number }, { n: number }>(
        `SELECT COUNT(*) AS n FROM human_requests WHERE run_id = @run_id AND attempt = @attempt AND kind = 'approve' AND approved = 1`,
      ),
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

  /** Records the answer of a request still waiting; false when it no longer waits. */
  answer(_uow: UnitOfWork, id: string, answer: HumanAnswerRow): boolean {
    return this.s.answer.run({ id, ...answer }).changes > 0;
  }

  /** Closes a request still waiting as expired; false when it no longer waits. */
  expire(_uow: UnitOfWork, id: string): boolean {
    return this.s.close.run({ id, status: 'expired' }).changes > 0;
  }

  /** Closes the waiting requests of a run that left `running`. */
  endRun(_uow: UnitOfWork, runId: string): void {
    this.s.endRun.run({ run_id: runId });
  }

  /** Whether a person approved a request of this attempt of the run. */
  hasApproval(runId: string, attempt: number): boolean {
    return (this.s.approvedFor.get({ run_id: runId, attempt })?.n ?? 0) > 0;
  }
}
