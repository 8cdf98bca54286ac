import { NotFoundError } from '../../errors.js';
import { pageQuery, toListResponse, type ListQuery, type ListResponse } from '../../pagination.js';
import type { Store } from '../../store/store.js';
import { toEmailRecord, type EmailRecord } from './email-record.js';

/** The messages an organisation sent, as GET /emails, GET /emails/{id} and its raw form show them. */
export class SentEmails {
  constructor(private readonly o: { store: Store }) {}

  /** GET /emails */
  list(orgId: string, q: ListQuery): ListResponse<EmailRecord> {
    const { store } = this.o;
    const identityMailbox = store.mailboxes.identityMailbox(orgId)?.id ?? null;
    return toListResponse(store.emails.list(orgId, pageQuery(q)), (row) => toEmailRecord(row, store.emails.recipients(row.id), identityMailbox));
  }

  /** GET /emails/{id} */
  get(orgId: string, id: string): EmailRecord {
    const { store } = this.o;
    const row = store.emails.get(orgId, id);
    if (row === undefined) throw new NotFoundError('email', id);
    return toEmailRecord(row, store.emails.recipients(id), store.mailboxes.identityMailbox(orgId)?.id ?? null);
  }

  /** The message as it was built and sent (RFC 5322 text). */
  raw(orgId: string, id: string): Buffer {
    const { store } = this.o;
    if (store.emails.get(orgId, id) === undefined) throw new NotFoundError('email', id);
    return store.emails.getWithMime(id)!.mime;
  }
}
