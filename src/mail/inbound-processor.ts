import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import type { Logger } from 'pino';
import { isoTime, type Clock } from '../clock.js';
import type { EventBus } from '../events.js';
import type { IdFactory } from '../ids.js';
import type { EmailRow } from '../store/emails-store.js';
import type { AttachmentRow, ReceivedEmailRow, ReceivedKind } from '../store/received-emails-store.js';
import type { Store } from '../store/store.js';
import type { UnitOfWork } from '../store/unit-of-work.js';
import { normalizeAddress } from './addresses.js';
import type { MailAttachments } from './attachments.js';
import type { AuthChecker, AuthVerdicts, SmtpClient } from './auth-verdicts.js';
import { readReport, type Report } from './delivery-reports.js';
import type { EmailEvents } from './email-events.js';
import { toReceivedEmail } from './received-record.js';
import type { Destination } from './recipient-resolver.js';
import { replyText } from './reply-text.js';
import type { Suppressions } from './suppressions.js';

/** Text and HTML bodies are kept, and sent in webhooks, up to this many characters each (`truncated` says when cut). */
export const BODY_LIMIT_CHARS = 256 * 1024;
/** HTML longer than this is not turned into text for a message that has no text part. */
const HTML_TO_TEXT_LIMIT = 2 * 1024 * 1024;

/** A message mailparser could not read at all: refused for good (554), since sending it again cannot help. */
export class MalformedMessageError extends Error {}

export interface InboundMessage {
  raw: Buffer;
  client: SmtpClient;
  destinations: readonly Destination[];
}

export interface InboundProcessorOptions {
  store: Store;
  clock: Clock;
  ids: IdFactory;
  bus: EventBus;
  logger: Logger;
  auth: AuthChecker;
  attachments: MailAttachments;
  events: EmailEvents;
  suppressions: Suppressions;
}

/** What every destination of one message shares: the message parsed once. */
interface Reading {
  parsed: ParsedMail;
  verdicts: AuthVerdicts;
  report: Report | null;
  from: string;
  fromName: string | null;
  to: string[];
  subject: string;
  text: string;
  html: string | null;
  reply: string;
  truncated: boolean;
  receivedAt: string;
}

/**
 * Turns an accepted message into what the organisation sees: parsed with mailparser, its quoted history stripped,
 * its SPF/DKIM/DMARC verdicts taken, matched to the send it answers (by its correlation address, or by In-Reply-To
 * and References when it came to a mailbox's own address), its attachments stored, and then, in one transaction,
 * the received row, the event in the log and the webhook in the outbox. Delivery-status and feedback reports at a
 * correlation address become bounces and complaints. The SMTP server answers 250 only after this has committed.
 */
export class InboundProcessor {
  constructor(private readonly o: InboundProcessorOptions) {}

  async process(message: InboundMessage): Promise<void> {
    const reading = await this.read(message);
    const prepared: { destination: Destination; row: ReceivedEmailRow; email: EmailRow | null; attachments: AttachmentRow[] }[] = [];
    for (const destination of message.destinations) {
      const email = this.repliedTo(destination, reading.parsed);
      const kind = kindOf(destination, email, reading.report);
      const orgId = orgOf(destination);
      const id = this.o.ids('msg');
      const attachments = kind === 'bounce' || kind === 'complaint' ? [] : await this.o.attachments.save(orgId, id, attachmentsOf(reading.parsed));
      prepared.push({
        destination,
        email,
        attachments,
        row: {
          id,
          org_id: orgId,
          kind,
          mailbox_id: destination.kind === 'run' ? null : destination.mailbox.id,
          run_id: destination.kind === 'run' ? destination.runId : null,
          email_id: email?.id ?? null,
          message_id_header: reading.parsed.messageId ?? null,
          in_reply_to_header: reading.parsed.inReplyTo ?? null,
          from_address: reading.from,
          from_name: reading.fromName,
          to_addresses: JSON.stringify(reading.to),
          subject: reading.subject,
          text: reading.text,
          html: reading.html,
          reply_text: reading.reply,
          truncated: reading.truncated ? 1 : 0,
          auth: JSON.stringify(reading.verdicts),
          received_at: reading.receivedAt,
        },
      });
    }
    this.o.store.transaction((uow) => {
      for (const p of prepared) {
        this.o.store.receivedEmails.insert(uow, p.row, p.attachments);
        this.announce(uow, p.destination, p.row, p.email, p.attachments, reading.report);
      }
    });
  }

  private async read(message: InboundMessage): Promise<Reading> {
    const receivedAt = isoTime(this.o.clock.now());
    let parsed: ParsedMail;
    try {
      parsed = await simpleParser(message.raw, { skipImageLinks: true, skipTextToHtml: true, skipTextLinks: true, maxHtmlLengthToParse: HTML_TO_TEXT_LIMIT });
    } catch (err) {
      throw new MalformedMessageError(`the message could not be parsed: ${(err as Error).message}`);
    }
    const verdicts = await this.o.auth.check(message.raw, message.client).catch((err: unknown): AuthVerdicts => {
      this.o.logger.warn({ err }, 'could not take the SPF, DKIM and DMARC verdicts of a message');
      return { spf: 'temperror', dkim: 'temperror', dmarc: 'temperror', spf_domain: null, dkim_domains: [], from_domain: null };
    });
    const fullText = parsed.text ?? '';
    const fullHtml = typeof parsed.html === 'string' ? parsed.html : null;
    const sender = parsed.from?.value[0];
    return {
      parsed,
      verdicts,
      report: readReport(message.raw, parsed.headers.get('content-type') as { value: string; params: Record<string, string> } | undefined),
      from: sender?.address ? normalizeAddress(sender.address) : message.client.sender,
      fromName: sender?.name ? sender.name : null,
      to: addressesOf(parsed.to),
      subject: parsed.subject ?? '',
      text: fullText.slice(0, BODY_LIMIT_CHARS),
      html: fullHtml === null ? null : fullHtml.slice(0, BODY_LIMIT_CHARS),
      reply: replyText(fullText),
      truncated: fullText.length > BODY_LIMIT_CHARS || (fullHtml?.length ?? 0) > BODY_LIMIT_CHARS,
      receivedAt,
    };
  }

  /**
   * The send a message answers: the one whose correlation address it came to, or, at a mailbox's own address, the
   * organisation's send named by In-Reply-To or, failing that, the newest of References.
   */
  private repliedTo(destination: Destination, parsed: ParsedMail): EmailRow | null {
    switch (destination.kind) {
      case 'correlation':
        return destination.email;
      case 'mailbox': {
        const references = typeof parsed.references === 'string' ? [parsed.references] : (parsed.references ?? []);
        for (const header of [parsed.inReplyTo, ...[...references].reverse()]) {
          if (header === undefined) continue;
          const email = this.o.store.emails.byMessageIdHeader(destination.mailbox.org_id, header.trim());
          if (email !== undefined) return email;
        }
        return null;
      }
      case 'run':
        return null;
      default: {
        const never: never = destination;
        throw new Error(`unknown destination ${JSON.stringify(never)}`);
      }
    }
  }

  private announce(uow: UnitOfWork, destination: Destination, row: ReceivedEmailRow, email: EmailRow | null, attachments: AttachmentRow[], report: Report | null): void {
    if ((row.kind === 'bounce' || row.kind === 'complaint') && email !== null && report !== null) {
      this.recordReport(uow, email, report);
      return;
    }
    const inboxId = destination.kind !== 'run' && destination.mailbox.kind === 'inbox' ? destination.mailbox.id : null;
    const data = toReceivedEmail(row, { correlationToken: email?.correlation_token ?? null, inboxId, attachments: attachments.map((a) => this.o.attachments.link(a)) });
    this.o.events.emit(uow, {
      type: 'email.received',
      orgId: row.org_id,
      runId: row.run_id,
      mailboxId: row.mailbox_id,
      data: { ...data },
      omitFromLog: ['text', 'html'],
      metadataJson: email?.metadata ?? null,
    });
    if (row.run_id !== null) {
      const runId = row.run_id;
      uow.afterCommit(() => this.o.bus.emit('email.run_received', { runId }));
    }
  }

  /** Only the message's own recipients can be bounced or complained about by a report that came back to it. */
  private recordReport(uow: UnitOfWork, email: EmailRow, report: Report): void {
    const recipients = this.o.store.emails.recipients(email.id).map((r) => r.address);
    switch (report.kind) {
      case 'delivery-status':
        for (const r of report.recipients) {
          if (r.action === 'failed' && r.status.startsWith('5.') && recipients.includes(r.address)) {
            this.o.suppressions.hardBounce(uow, email, r.address, { status: r.status, diagnostic: r.diagnostic, source: 'report' });
          }
        }
        return;
      case 'feedback': {
        const named = report.originalRcptTo.find((a) => recipients.includes(a));
        const only = recipients.length === 1 ? recipients[0]! : null;
        this.o.suppressions.complaint(uow, email, named ?? only, { feedbackType: report.feedbackType, userAgent: report.userAgent });
        return;
      }
      default: {
        const never: never = report;
        throw new Error(`unknown report ${JSON.stringify(never)}`);
      }
    }
  }
}

function kindOf(destination: Destination, email: EmailRow | null, report: Report | null): ReceivedKind {
  if (destination.kind === 'run') return 'run';
  if (destination.kind === 'correlation' && report !== null) return report.kind === 'feedback' ? 'complaint' : 'bounce';
  return email === null ? 'message' : 'reply';
}

function orgOf(destination: Destination): string {
  return destination.kind === 'run' ? destination.orgId : destination.mailbox.org_id;
}

function addressesOf(field: AddressObject | AddressObject[] | undefined): string[] {
  const objects = field === undefined ? [] : Array.isArray(field) ? field : [field];
  return objects.flatMap((o) => o.value.flatMap((v) => (v.address ? [normalizeAddress(v.address)] : [])));
}

function attachmentsOf(parsed: ParsedMail): { filename: string | null; contentType: string; content: Buffer }[] {
  return parsed.attachments.map((a) => ({ filename: a.filename ?? null, contentType: a.contentType || 'application/octet-stream', content: a.content }));
}
