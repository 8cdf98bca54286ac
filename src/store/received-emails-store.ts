import type Database from 'better-sqlite3';
import { defineColumns, fixed, type RowOf } from './columns.js';
import type { Db } from './database.js';
import { toPage, type Page, type PageQuery } from './page.js';
import { StatementCache } from './statement-cache.js';
import type { UnitOfWork } from './unit-of-work.js';

export type ReceivedKind = 'reply' | 'message' | 'bounce' | 'complaint' | 'run';

/** A message the inbound server accepted. `to_addresses` (an array) and `auth` are JSON text. */
export const receivedEmailColumns = defineColumns('received_emails', {
  id: fixed<string>(),
  org_id: fixed<string>(),
  kind: fixed<ReceivedKind>(),
  mailbox_id: fixed<string | null>(),
  run_id: fixed<string | null>(),
  email_id: fixed<string | null>(),
  message_id_header: fixed<string | null>(),
  in_reply_to_header: fixed<string | null>(),
  from_address: fixed<string>(),
  from_name: fixed<string | null>(),
  to_addresses: fixed<string>(),
  subject: fixed<string>(),
  text: fixed<string>(),
  html: fixed<string | null>(),
  reply_text: fixed<string>(),
  truncated: fixed<number>(),
  auth: fixed<string>(),
  received_at: fixed<string>(),
});
export type ReceivedEmailRow = RowOf<typeof receivedEmailColumns>;

/**
 * A list of received mail: the organisation's, or one inbox's or one run's, received at or after `since` (an ISO
 * time) when given. `sinceId` is the smallest id minted at `since`: ids are minted when a message is stored, so every
 * message received since then is in that range of the index, and `since` itself trims the range's first millisecond.
 */
export interface ReceivedFilter extends PageQuery {
  mailboxId: string | null;
  runId: string | null;
  since: { at: string; sinceId: string } | null;
}

/** Every column but the bodies, which a list leaves out (they may be 256 KiB each; GET by id has them). */
const LISTED_COLUMNS = receivedEmailColumns.names.map((n) => (n === 'text' ? "'' AS text" : n === 'html' ? 'NULL AS html' : n)).join(', ');

/** A file of a received message, at `path` under the data directory's `mail/attachments/`. */
export interface AttachmentRow {
  id: string;
  received_id: string;
  org_id: string;
  filename: string | null;
  content_type: string;
  bytes: number;
  path: string;
  created_at: string;
}

export interface RunMailboxRow {
  token: string;
  run_id: string;
  org_id: string;
  created_at: string;
}

export class ReceivedEmailsStore {
  private readonly s;
  private readonly cache: StatementCache;
  /** The list's statements by text (test/store/query-plans.test.ts reads their plans here). */
  private readonly listCache = new Map<string, Database.Statement<Record<string, unknown>, unknown[]>>();

  constructor(private readonly db: Db) {
    this.cache = new StatementCache(db);
    const c = receivedEmailColumns.selectList;
    this.s = {
      get: db.prepare<{ id: string; org_id: string }, unknown[]>(`SELECT ${c} FROM received_emails WHERE id = @id AND org_id = @org_id`).raw(),
      runAfter: db.prepare<{ run_id: string; after: string; limit: number }, unknown[]>(
        `SELECT ${c} FROM received_emails WHERE run_id = @run_id AND id > @after ORDER BY id LIMIT @limit`,
      ).raw(),
      insertAttachment: db.prepare<AttachmentRow>(
        `INSERT INTO email_attachments (id, received_id, org_id, filename, content_type, bytes, path, created_at)
         VALUES (@id, @received_id, @org_id, @filename, @content_type, @bytes, @path, @created_at)`,
      ),
      attachments: db.prepare<{ received_id: string }, AttachmentRow>('SELECT * FROM email_attachments WHERE received_id = @received_id ORDER BY rowid'),
      attachment: db.prepare<{ id: string }, AttachmentRow>('SELECT * FROM email_attachments WHERE id = @id'),
      insertRunMailbox: db.prepare<RunMailboxRow>(
        'INSERT INTO run_mailboxes (token, run_id, org_id, created_at) VALUES (@token, @run_id, @org_id, @created_at) ON CONFLICT (token) DO NOTHING',
      ),
      runMailbox: db.prepare<{ token: string }, RunMailboxRow>('SELECT * FROM run_mailboxes WHERE token = @token'),
    };
  }

  /** Newest first, without `text` and `html`; one statement per combination of filters, each through its index. */
  list(orgId: string, q: ReceivedFilter): Page<ReceivedEmailRow> {
    const where = ['org_id = @org_id'];
    if (q.mailboxId !== null) where.push('mailbox_id = @mailbox_id');
    if (q.runId !== null) where.push('run_id = @run_id');
    if (q.since !== null) where.push('id >= @since_id', 'received_at >= @since');
    if (q.cursor !== null) where.push('id < @cursor');
    // A run's mail through the run's index, also with an inbox given (which the planner would look up instead).
    const index = q.runId !== null ? 'INDEXED BY received_emails_run ' : '';
    const sql = `SELECT ${LISTED_COLUMNS} FROM received_emails ${index}WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT @limit`;
    const params: Record<string, unknown> = { org_id: orgId, limit: q.limit + 1 };
    if (q.mailboxId !== null) params.mailbox_id = q.mailboxId;
    if (q.runId !== null) params.run_id = q.runId;
    if (q.since !== null) Object.assign(params, { since_id: q.since.sinceId, since: q.since.at });
    if (q.cursor !== null) params.cursor = q.cursor;
    let stmt = this.listCache.get(sql);
    if (stmt === undefined) {
      stmt = this.db.prepare<Record<string, unknown>, unknown[]>(sql).raw();
      this.listCache.set(sql, stmt);
    }
    return toPage(stmt.all(params).map((v) => receivedEmailColumns.row(v)), q.limit);
  }

  insert(_uow: UnitOfWork, row: ReceivedEmailRow, attachments: readonly AttachmentRow[]): void {
    this.cache.get(receivedEmailColumns.insertSql(row)).run(row);
    for (const a of attachments) this.s.insertAttachment.run(a);
  }

  get(orgId: string, id: string): ReceivedEmailRow | undefined {
    const v = this.s.get.get({ id, org_id: orgId });
    return v && receivedEmailColumns.row(v);
  }

  /** Mail to a run's address received after the message `afterId` ('' for all), oldest first. */
  forRun(runId: string, afterId: string, limit: number): ReceivedEmailRow[] {
    return this.s.runAfter.all({ run_id: runId, after: afterId, limit }).map((v) => receivedEmailColumns.row(v));
  }

  attachments(receivedId: string): AttachmentRow[] {
    return this.s.attachments.all({ received_id: receivedId });
  }

  /** By id alone: signed links carry no organisation, the signature is the authority. */
  attachment(id: string): AttachmentRow | undefined {
    return this.s.attachment.get({ id });
  }

  /** Records a run's mailbox; a second call for the same run changes nothing. */
  addRunMailbox(row: RunMailboxRow): void {
    this.s.insertRunMailbox.run(row);
  }

  runMailbox(token: string): RunMailboxRow | undefined {
    return this.s.runMailbox.get({ token });
  }
}
