import { NotFoundError } from '../../errors.js';
import type { Store } from '../../store/store.js';
import type { MailAttachments } from './attachments.js';
import { toReceivedEmail, type ReceivedEmail } from './received-record.js';

/** GET /emails/received/{id}: a received message as its webhook carried it, with fresh attachment links. */
export class ReceivedEmails {
  constructor(private readonly o: { store: Store; attachments: MailAttachments }) {}

  get(orgId: string, id: string): ReceivedEmail & { metadata: unknown } {
    const row = this.o.store.receivedEmails.get(orgId, id);
    if (row === undefined) throw new NotFoundError('received email', id);
    const email = row.email_id === null ? undefined : this.o.store.emails.get(orgId, row.email_id);
    const mailbox = row.mailbox_id === null ? undefined : this.o.store.mailboxes.get(orgId, row.mailbox_id);
    return {
      ...toReceivedEmail(row, {
        correlationToken: email?.correlation_token ?? null,
        inboxId: mailbox?.kind === 'inbox' ? mailbox.id : null,
        attachments: this.o.store.receivedEmails.attachments(id).map((a) => this.o.attachments.link(a)),
      }),
      metadata: email?.metadata == null ? null : JSON.parse(email.metadata),
    };
  }
}
