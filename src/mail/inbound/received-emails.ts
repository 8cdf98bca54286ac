import { isoTime } from '../../clock.js';
import { NotFoundError } from '../../errors.js';
import { idBoundAt } from '../../ids.js';
import { pageQuery, toListResponse, type ListResponse } from '../../pagination.js';
import type { ReceivedEmailsQuery } from '../email-schemas.js';
import type { ReceivedEmailRow } from '../../store/received-emails-store.js';
import type { Store } from '../../store/store.js';
import type { MailAttachments } from './attachments.js';
import { toReceivedEmail, type ReceivedEmail } from './received-record.js';


/** A received message as its webhook carried it, and the `metadata` of the send it answers. */
export type ReceivedEmailRecord = ReceivedEmail & { metadata: unknown };

/** A received message as the list shows it: without `text` and `html`, which GET by id answers. */
export type ListedReceivedEmail = Omit<ReceivedEmailRecord, 'text' | 'html'>;

/** GET /emails/received: the organisation's received mail, newest first; GET /emails/received/{id}: one message. */
export class ReceivedEmails {
  constructor(private readonly o: { store: Store; attachments: MailAttachments }) {}

  /** One message as its webhook carried it, with fresh attachment links. */
  get(orgId: string, id: string): ReceivedEmailRecord {
    const row = this.o.store.receivedEmails.get(orgId, id);
    if (row === undefined) throw new NotFoundError('received email', id);
    return this.record(orgId, row);
  }

  /** An inbox or a run that is not the organisation's has no mail of the organisation: its list is empty. */
  list(orgId: string, q: ReceivedEmailsQuery): ListResponse<ListedReceivedEmail> {
    const sinceMs = q.since === undefined ? null : Date.parse(q.since);
    const page = this.o.store.receivedEmails.list(orgId, {
      ...pageQuery(q),
      mailboxId: q.inbox ?? null,
      runId: q.run ?? null,
      since: sinceMs === null ? null : { at: isoTime(sinceMs), sinceId: idBoundAt('msg', sinceMs) },
    });
    return toListResponse(page, (row) => {
      const { text, html, ...listed } = this.record(orgId, row);
      return listed;
    });
  }

  private record(orgId: string, row: ReceivedEmailRow): ReceivedEmailRecord {
    const email = row.email_id === null ? undefined : this.o.store.emails.get(orgId, row.email_id);
    const mailbox = row.mailbox_id === null ? undefined : this.o.store.mailboxes.get(orgId, row.mailbox_id);
    return {
      ...toReceivedEmail(row, {
        correlationToken: email?.correlation_token ?? null,
        inboxId: mailbox?.kind === 'inbox' ? mailbox.id : null,
        attachments: this.o.store.receivedEmails.attachments(row.id).map((a) => this.o.attachments.link(a)),
      }),
      metadata: email?.metadata == null ? null : JSON.parse(email.metadata),
    };
  }
}
