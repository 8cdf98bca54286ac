import type { ReceivedEmailRow, ReceivedKind } from '../../store/received-emails-store.js';
import type { AttachmentLink } from './attachments.js';
import { storedVerdicts, type AuthVerdicts } from './auth-verdicts.js';

/**
 * A received message as the `email.received` webhook carries it (its `data`, with `metadata` beside) and as
 * `GET /emails/received/{id}` answers it. The decisions page's members first, then the additive ones.
 */
export interface ReceivedEmail {
  /** This message's id (`msg_...`). */
  message_id: string;
  /** The `message_id` of the send it answers, or null when it answers none of ours. */
  in_reply_to: string | null;
  correlation_token: string | null;
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string | null;
  /** `text` without the quoted history and signature. */
  reply_text: string;
  received_at: string;
  object: 'received_email';
  kind: ReceivedKind;
  /** The inbox it arrived at; null for the identity (and for a run's mailbox). */
  inbox_id: string | null;
  run_id: string | null;
  from_name: string | null;
  /** Its own Message-ID and In-Reply-To headers, as they arrived. */
  message_id_header: string | null;
  in_reply_to_header: string | null;
  auth: AuthVerdicts;
  attachments: AttachmentLink[];
  /** True when text or html were cut at 256 KiB. */
  truncated: boolean;
}

export function toReceivedEmail(
  row: ReceivedEmailRow,
  related: { correlationToken: string | null; inboxId: string | null; attachments: AttachmentLink[] },
): ReceivedEmail {
  return {
    message_id: row.id,
    in_reply_to: row.email_id,
    correlation_token: related.correlationToken,
    from: row.from_address,
    to: JSON.parse(row.to_addresses) as string[],
    subject: row.subject,
    text: row.text,
    html: row.html,
    reply_text: row.reply_text,
    received_at: row.received_at,
    object: 'received_email',
    kind: row.kind,
    inbox_id: related.inboxId,
    run_id: row.run_id,
    from_name: row.from_name,
    message_id_header: row.message_id_header,
    in_reply_to_header: row.in_reply_to_header,
    auth: storedVerdicts(row.auth),
    attachments: related.attachments,
    truncated: row.truncated === 1,
  };
}
