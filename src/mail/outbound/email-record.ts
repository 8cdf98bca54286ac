import type { EmailRow, EmailStatus, RecipientKind, RecipientRow, RecipientStatus } from '../../store/emails-store.js';

export type ReplyToReason = 'sending_domain' | 'relay_fallback' | 'override' | 'none';

export interface ReplyTo {
  address: string | null;
  reason: ReplyToReason;
  detail: string;
}

/** The spec's "Email send result": the 202 body of POST /emails and POST /inboxes/{id}/messages. */
export interface EmailSendResult {
  message_id: string;
  from_address: string;
  correlation_token: string;
  status: EmailStatus;
  reply_to: ReplyTo | null;
  suppressed: string[];
}

export interface EmailRecipient {
  address: string;
  kind: RecipientKind;
  status: RecipientStatus;
  detail: string | null;
  updated_at: string;
}

/** A sent message as GET /emails/{id} shows it (additive). */
export interface EmailRecord {
  id: string;
  object: 'email';
  message_id: string;
  /** Null for a message from the organisation's identity. */
  inbox_id: string | null;
  status: EmailStatus;
  from_address: string;
  from_name: string;
  subject: string;
  to: string[];
  cc: string[];
  bcc: string[];
  reply_to: ReplyTo;
  correlation_token: string;
  message_id_header: string;
  metadata: unknown;
  client_id: string | null;
  send_at: string | null;
  suppressed: string[];
  recipients: EmailRecipient[];
  created_at: string;
  updated_at: string;
}

export function toEmailRecord(row: EmailRow, recipients: readonly RecipientRow[], identityMailboxId: string | null): EmailRecord {
  const of = (kind: RecipientKind) => recipients.filter((r) => r.kind === kind).map((r) => r.address);
  return {
    id: row.id,
    object: 'email',
    message_id: row.id,
    inbox_id: row.mailbox_id === identityMailboxId ? null : row.mailbox_id,
    status: row.status,
    from_address: row.from_address,
    from_name: row.from_name,
    subject: row.subject,
    to: of('to'),
    cc: of('cc'),
    bcc: of('bcc'),
    reply_to: { address: row.reply_to_address, reason: row.reply_to_reason as ReplyToReason, detail: row.reply_to_detail },
    correlation_token: row.correlation_token,
    message_id_header: row.message_id_header,
    metadata: row.metadata === null ? null : JSON.parse(row.metadata),
    client_id: row.client_id,
    send_at: row.send_at,
    suppressed: recipients.filter((r) => r.status === 'suppressed').map((r) => r.address),
    recipients: recipients.map((r) => ({ address: r.address, kind: r.kind, status: r.status, detail: r.detail, updated_at: r.updated_at })),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
