import type { StatusMove } from '../lifecycle.js';
import { defineColumns, fixed, patchable, type RowOf } from './columns.js';
import type { Db } from './database.js';
import { toPage, type Page, type PageQuery } from './page.js';
import { StatementCache } from './statement-cache.js';
import type { UnitOfWork } from './unit-of-work.js';

export type EmailStatus = 'sent' | 'scheduled' | 'pending_approval' | 'rejected';
export type RecipientKind = 'to' | 'cc' | 'bcc';
export type RecipientStatus = 'queued' | 'delivered' | 'deferred' | 'bounced' | 'complained' | 'failed' | 'suppressed' | 'rejected';

/**
 * A message sent from an identity or inbox. `mime` is the message as built and signed once; `metadata` is the
 * caller's JSON text as it arrived; `accepted` is the 202 body, answered again to a client_id replay.
 */
export const emailColumns = defineColumns('emails', {
  id: fixed<string>(),
  org_id: fixed<string>(),
  mailbox_id: fixed<string>(),
  key_id: fixed<string | null>(),
  status: fixed<EmailStatus>(),
  from_address: fixed<string>(),
  from_name: fixed<string>(),
  subject: fixed<string>(),
  reply_to_address: fixed<string | null>(),
  reply_to_reason: fixed<string>(),
  reply_to_detail: fixed<string>(),
  correlation_token: fixed<string>(),
  envelope_from: fixed<string>(),
  message_id_header: fixed<string>(),
  metadata: fixed<string | null>(),
  client_id: fixed<string | null>(),
  request_hash: fixed<string | null>(),
  send_at: fixed<string | null>(),
  recipient_count: fixed<number>(),
  mime: fixed<Buffer>(),
  accepted: fixed<string>(),
  created_at: fixed<string>(),
  updated_at: patchable<string>(),
});
export type EmailRow = RowOf<typeof emailColumns>;

export interface RecipientRow {
  email_id: string;
  address: string;
  kind: RecipientKind;
  status: RecipientStatus;
  detail: string | null;
  updated_at: string;
}

export interface QueueRow {
  email_id: string;
  next_attempt_at: number;
  attempts: number;
  lease_owner: string | null;
  lease_expires_at: number | null;
  last_error: string | null;
}

/** What one delivery attempt changes: recipients' states, and when to try again (null: nothing left to send). */
export interface AttemptRecord {
  recipients: { address: string; move: StatusMove<RecipientStatus>; detail: string | null }[];
  nextAttemptAt: number | null;
  lastError: string | null;
  updatedAt: string;
}

/** Every column but the MIME text, which only the outbound worker and `errand email show --raw` read. */
const LIGHT_COLUMNS = emailColumns.names.map((n) => (n === 'mime' ? "X'' AS mime" : n)).join(', ');

export class EmailsStore {
  private readonly s;
  private readonly cache: StatementCache;

  constructor(db: Db) {
    this.cache = new StatementCache(db);
    this.s = {
      get: db.prepare<{ id: string; org_id: string }, unknown[]>(`SELECT ${LIGHT_COLUMNS} FROM emails WHERE id = @id AND org_id = @org_id`).raw(),
      getWithMime: db.prepare<{ id: string }, unknown[]>(`SELECT ${emailColumns.selectList} FROM emails WHERE id = @id`).raw(),
      byClientId: db.prepare<{ org_id: string; mailbox_id: string; client_id: string }, unknown[]>(
        `SELECT ${LIGHT_COLUMNS} FROM emails WHERE org_id = @org_id AND mailbox_id = @mailbox_id AND client_id = @client_id`,
      ).raw(),
      byToken: db.prepare<{ token: string }, unknown[]>(`SELECT ${LIGHT_COLUMNS} FROM emails WHERE correlation_token = @token`).raw(),
      byMessageId: db.prepare<{ org_id: string; header: string }, unknown[]>(
        `SELECT ${LIGHT_COLUMNS} FROM emails WHERE message_id_header = @header AND org_id = @org_id`,
      ).raw(),
      first: db.prepare<{ org_id: string; limit: number }, unknown[]>(`SELECT ${LIGHT_COLUMNS} FROM emails WHERE org_id = @org_id ORDER BY id DESC LIMIT @limit`).raw(),
      after: db.prepare<{ org_id: string; cursor: string; limit: number }, unknown[]>(
        `SELECT ${LIGHT_COLUMNS} FROM emails WHERE org_id = @org_id AND id < @cursor ORDER BY id DESC LIMIT @limit`,
      ).raw(),
      sentSince: db.prepare<{ org_id: string; since: string }, number>(
        `SELECT COALESCE(SUM(recipient_count), 0) FROM emails WHERE org_id = @org_id AND created_at >= @since AND status <> 'rejected'`,
      ).pluck(),
      setStatus: db.prepare<{ id: string; from: EmailStatus; to: EmailStatus; updated_at: string }>(
        'UPDATE emails SET status = @to, updated_at = @updated_at WHERE id = @id AND status = @from',
      ),
      insertRecipient: db.prepare<RecipientRow>(
        'INSERT INTO email_recipients (email_id, address, kind, status, detail, updated_at) VALUES (@email_id, @address, @kind, @status, @detail, @updated_at)',
      ),
      recipients: db.prepare<{ email_id: string }, RecipientRow>('SELECT * FROM email_recipients WHERE email_id = @email_id ORDER BY rowid'),
      setRecipient: db.prepare<{ email_id: string; address: string; from: RecipientStatus; to: RecipientStatus; detail: string | null; updated_at: string }>(
        'UPDATE email_recipients SET status = @to, detail = @detail, updated_at = @updated_at WHERE email_id = @email_id AND address = @address AND status = @from',
      ),
      enqueue: db.prepare<{ email_id: string; at: number }>('INSERT INTO email_queue (email_id, next_attempt_at) VALUES (@email_id, @at)'),
      // One statement picks and leases, so two workers (or two daemons on one file) never send the same message.
      claimDue: db.prepare<{ owner: string; now: number; until: number }, QueueRow>(
        `UPDATE email_queue SET lease_owner = @owner, lease_expires_at = @until
         WHERE email_id = (SELECT email_id FROM email_queue
                           WHERE next_attempt_at <= @now AND (lease_expires_at IS NULL OR lease_expires_at <= @now)
                           ORDER BY next_attempt_at, email_id LIMIT 1)
         RETURNING *`,
      ),
      queueDepth: db.prepare<[], number>('SELECT COUNT(*) FROM email_queue').pluck(),
      nextDue: db.prepare<[], number>('SELECT next_attempt_at FROM email_queue WHERE lease_owner IS NULL ORDER BY next_attempt_at LIMIT 1').pluck(),
      reschedule: db.prepare<{ email_id: string; owner: string; at: number; last_error: string | null }>(
        `UPDATE email_queue SET next_attempt_at = @at, attempts = attempts + 1, last_error = @last_error, lease_owner = NULL, lease_expires_at = NULL
         WHERE email_id = @email_id AND lease_owner = @owner`,
      ),
      dequeue: db.prepare<{ email_id: string; owner: string }>('DELETE FROM email_queue WHERE email_id = @email_id AND lease_owner = @owner'),
      queued: db.prepare<{ email_id: string }, QueueRow>('SELECT * FROM email_queue WHERE email_id = @email_id'),
      byId: db.prepare<{ id: string }, unknown[]>(`SELECT ${LIGHT_COLUMNS} FROM emails WHERE id = @id`).raw(),
      pendingApproval: db.prepare<[], unknown[]>(`SELECT ${LIGHT_COLUMNS} FROM emails WHERE status = 'pending_approval' ORDER BY id`).raw(),
    };
  }

  /** Inserts a message with its recipients; `queueAt` (ms) puts it on the outbound queue, null leaves it off. */
  insert(_uow: UnitOfWork, row: EmailRow, recipients: RecipientRow[], queueAt: number | null): void {
    this.cache.get(emailColumns.insertSql(row)).run(row);
    for (const r of recipients) this.s.insertRecipient.run(r);
    if (queueAt !== null) this.s.enqueue.run({ email_id: row.id, at: queueAt });
  }

  /** The message without its MIME text. */
  get(orgId: string, id: string): EmailRow | undefined {
    const v = this.s.get.get({ id, org_id: orgId });
    return v && emailColumns.row(v);
  }

  /** The message without its MIME text, by id alone (an administrator's approval names only the id). */
  getAnyOrg(id: string): EmailRow | undefined {
    const v = this.s.byId.get({ id });
    return v && emailColumns.row(v);
  }

  /** The message with its MIME text, by id alone (the worker holds only the id). */
  getWithMime(id: string): EmailRow | undefined {
    const v = this.s.getWithMime.get({ id });
    return v && emailColumns.row(v);
  }

  byClientId(orgId: string, mailboxId: string, clientId: string): EmailRow | undefined {
    const v = this.s.byClientId.get({ org_id: orgId, mailbox_id: mailboxId, client_id: clientId });
    return v && emailColumns.row(v);
  }

  byCorrelationToken(token: string): EmailRow | undefined {
    const v = this.s.byToken.get({ token });
    return v && emailColumns.row(v);
  }

  /** The message of an organisation that carried this Message-ID header (`<...>`). */
  byMessageIdHeader(orgId: string, header: string): EmailRow | undefined {
    const v = this.s.byMessageId.get({ org_id: orgId, header });
    return v && emailColumns.row(v);
  }

  list(orgId: string, q: PageQuery): Page<EmailRow> {
    const rows = q.cursor === null ? this.s.first.all({ org_id: orgId, limit: q.limit + 1 }) : this.s.after.all({ org_id: orgId, cursor: q.cursor, limit: q.limit + 1 });
    return toPage(rows.map((v) => emailColumns.row(v)), q.limit);
  }

  /** Messages waiting for a person's approval, across organisations, oldest first. */
  pendingApproval(): EmailRow[] {
    return this.s.pendingApproval.all().map((v) => emailColumns.row(v));
  }

  /** Recipients counted against the daily cap: those of every message created since `sinceIso` but rejected ones. */
  recipientsSentSince(orgId: string, sinceIso: string): number {
    return this.s.sentSince.get({ org_id: orgId, since: sinceIso }) ?? 0;
  }

  /** Compare-and-set of a message's status; false when it was no longer `move.from`. */
  setStatus(_uow: UnitOfWork, id: string, move: StatusMove<EmailStatus>, updatedAt: string): boolean {
    return this.s.setStatus.run({ id, from: move.from, to: move.to, updated_at: updatedAt }).changes > 0;
  }

  recipients(emailId: string): RecipientRow[] {
    return this.s.recipients.all({ email_id: emailId });
  }

  /** Compare-and-set of a recipient's status; false when it was no longer `move.from`. */
  setRecipientStatus(_uow: UnitOfWork, emailId: string, address: string, move: StatusMove<RecipientStatus>, detail: string | null, updatedAt: string): boolean {
    return this.s.setRecipient.run({ email_id: emailId, address, from: move.from, to: move.to, detail, updated_at: updatedAt }).changes > 0;
  }

  enqueue(_uow: UnitOfWork, emailId: string, atMs: number): void {
    this.s.enqueue.run({ email_id: emailId, at: atMs });
  }

  /** Leases the most overdue queued message to `owner` until `leaseUntil`, or returns undefined. */
  claimDue(owner: string, nowMs: number, leaseUntil: number): QueueRow | undefined {
    return this.s.claimDue.get({ owner, now: nowMs, until: leaseUntil });
  }

  /** When the earliest queued message that no worker holds becomes due, or null. */
  nextDueAt(): number | null {
    return this.s.nextDue.get() ?? null;
  }

  /** Messages on the outbound queue. */
  queueDepth(): number {
    return this.s.queueDepth.get() ?? 0;
  }

  queueRow(emailId: string): QueueRow | undefined {
    return this.s.queued.get({ email_id: emailId });
  }

  /**
   * Records what an attempt did to the recipients, and reschedules the message or takes it off the queue. False
   * when `owner` no longer held the lease (another worker took over): then nothing is written.
   */
  recordAttempt(uow: UnitOfWork, owner: string, emailId: string, record: AttemptRecord): boolean {
    const held =
      record.nextAttemptAt === null
        ? this.s.dequeue.run({ email_id: emailId, owner }).changes > 0
        : this.s.reschedule.run({ email_id: emailId, owner, at: record.nextAttemptAt, last_error: record.lastError }).changes > 0;
    if (!held) return false;
    // A recipient a report moved meanwhile (a bounce that came back during a retry) keeps what the report said.
    for (const r of record.recipients) this.setRecipientStatus(uow, emailId, r.address, r.move, r.detail, record.updatedAt);
    return true;
  }
}
