import type { Logger } from 'pino';
import { isoTime, type Clock } from '../../clock.js';
import type { EventBus } from '../../events.js';
import type { IdFactory } from '../../ids.js';
import type { EmailRow } from '../../store/emails-store.js';
import type { AttachmentRow, ReceivedEmailRow, ReceivedKind } from '../../store/received-emails-store.js';
import type { Store } from '../../store/store.js';
import type { UnitOfWork } from '../../store/unit-of-work.js';
import type { MailAttachments } from './attachments.js';
import type { AuthChecker, SmtpClient } from './auth-verdicts.js';
import type { Report } from './delivery-reports.js';
import type { EventAnnouncer } from '../../event-log/event-announcer.js';
import { readMessage, type MessageReading } from './message-reading.js';
import { toReceivedEmail } from './received-record.js';
import type { Destination } from './recipient-resolver.js';
import type { Suppressions } from '../outbound/suppressions.js';

export interface InboundMessage {
  raw: Buffer;
  /** Who sent it over SMTP; null for a reply simulated on request (`SimulatedReplies`), whose webhook says `"test": true`. */
  client: SmtpClient | null;
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
  announcer: EventAnnouncer;
  suppressions: Suppressions;
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

  /** Answers the ids of the received messages, one per destination, in their order. */
  async process(message: InboundMessage): Promise<string[]> {
    const reading = await readMessage(message.raw, message.client, this.o.auth);
    if (reading.authError !== null) this.o.logger.warn({ error: reading.authError }, 'could not take the SPF, DKIM and DMARC verdicts of a message');
    const receivedAt = isoTime(this.o.clock.now());
    const prepared: { destination: Destination; row: ReceivedEmailRow; email: EmailRow | null; attachments: AttachmentRow[] }[] = [];
    for (const destination of message.destinations) {
      const email = this.repliedTo(destination, reading);
      const kind = kindOf(destination, email, reading.report);
      const orgId = orgOf(destination);
      const id = this.o.ids('msg');
      const attachments = kind === 'bounce' || kind === 'complaint' ? [] : await this.o.attachments.save(orgId, id, reading.attachments);
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
          message_id_header: reading.messageId,
          in_reply_to_header: reading.inReplyTo,
          from_address: reading.from,
          from_name: reading.fromName,
          to_addresses: JSON.stringify(reading.to),
          subject: reading.subject,
          text: reading.text,
          html: reading.html,
          reply_text: reading.reply,
          truncated: reading.truncated ? 1 : 0,
          auth: JSON.stringify(reading.verdicts),
          received_at: receivedAt,
        },
      });
    }
    const simulated = message.client === null;
    this.o.store.transaction((uow) => {
      for (const p of prepared) {
        this.o.store.receivedEmails.insert(uow, p.row, p.attachments);
        this.announce(uow, p.destination, p.row, p.email, p.attachments, reading.report, simulated);
      }
    });
    return prepared.map((p) => p.row.id);
  }

  /**
   * The send a message answers: the one whose correlation address it came to, or, at a mailbox's own address, the
   * organisation's send named by In-Reply-To or, failing that, the newest of References.
   */
  private repliedTo(destination: Destination, reading: MessageReading): EmailRow | null {
    switch (destination.kind) {
      case 'correlation':
        return destination.email;
      case 'mailbox': {
        for (const header of [reading.inReplyTo, ...[...reading.references].reverse()]) {
          if (header === null) continue;
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

  private announce(uow: UnitOfWork, destination: Destination, row: ReceivedEmailRow, email: EmailRow | null, attachments: AttachmentRow[], report: Report | null, simulated: boolean): void {
    if ((row.kind === 'bounce' || row.kind === 'complaint') && email !== null && report !== null) {
      this.recordReport(uow, email, report);
      return;
    }
    const inboxId = destination.kind !== 'run' && destination.mailbox.kind === 'inbox' ? destination.mailbox.id : null;
    const data = toReceivedEmail(row, { correlationToken: email?.correlation_token ?? null, inboxId, attachments: attachments.map((a) => this.o.attachments.link(a)) });
    this.o.announcer.announce(uow, {
      type: 'email.received',
      orgId: row.org_id,
      runId: row.run_id,
      mailboxId: row.mailbox_id,
      data,
      verbatimJson: email?.metadata ?? null,
      test: simulated,
    });
    // A simulated reply is a test of the receiver's webhook, and answers nothing.
    if (row.kind === 'reply' && email !== null && !simulated) {
      const replied = { orgId: row.org_id, emailId: email.id, receivedId: row.id };
      uow.afterCommit(() => this.o.bus.emit('wake.email_replied', replied));
    }
    if (row.run_id !== null) {
      const runId = row.run_id;
      uow.afterCommit(() => this.o.bus.emit('wake.email_run_received', { runId }));
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
