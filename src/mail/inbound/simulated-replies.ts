import MailComposer from 'nodemailer/lib/mail-composer';
import type { Clock } from '../../clock.js';
import { InvalidRequestError, NotFoundError } from '../../errors.js';
import type { Store } from '../../store/store.js';
import type { SimulateReplyBody } from '../email-schemas.js';
import { installationNotConfigured } from '../identity/identity-service.js';
import type { InboundProcessor } from './inbound-processor.js';
import type { ReceivedEmail } from './received-record.js';
import type { ReceivedEmails } from './received-emails.js';
import type { RecipientResolver } from './recipient-resolver.js';

export interface SimulatedRepliesOptions {
  store: Store;
  clock: Clock;
  /** The inbound path a reply over SMTP takes; null when the installation receives no mail. */
  inbound: { resolver: RecipientResolver; processor: InboundProcessor } | null;
  received: ReceivedEmails;
}

/**
 * `POST /v1/emails/{id}/simulate_reply`: a reply to a sent message, fed through the path a reply arriving over SMTP
 * takes (the recipient check of RCPT TO, then parsing, reply stripping, correlation, the received row, the
 * `email.received` event and its webhook), so that a developer can try their reply webhook without a mail server.
 * Its SPF, DKIM and DMARC verdicts are `none` (nothing was checked) and its webhook's body says `"test": true`.
 */
export class SimulatedReplies {
  constructor(private readonly o: SimulatedRepliesOptions) {}

  async reply(orgId: string, emailId: string, body: SimulateReplyBody): Promise<ReceivedEmail & { metadata: unknown }> {
    const email = this.o.store.emails.get(orgId, emailId);
    if (email === undefined) throw new NotFoundError('email', emailId);
    if (this.o.inbound === null) throw installationNotConfigured('inbound');
    const to = email.reply_to_address;
    if (email.reply_to_reason === 'override' || to === null) {
      throw new InvalidRequestError('replies_not_received', `Replies to ${emailId} do not come to Errand: ${email.reply_to_detail}`, { param: 'id' });
    }
    const destination = this.o.inbound.resolver.resolve(to);
    if (destination.kind === 'refused') throw new InvalidRequestError('replies_not_received', `Replies to ${emailId} are refused now: ${to} answers ${destination.code} ${destination.message}`, { param: 'id' });
    const from = body.from ?? this.o.store.emails.recipients(email.id).find((r) => r.kind !== 'bcc')?.address ?? 'someone@example.com';
    const raw = await new MailComposer({
      from,
      to,
      subject: /^re:/i.test(email.subject) ? email.subject : `Re: ${email.subject}`,
      inReplyTo: email.message_id_header,
      references: email.message_id_header,
      date: new Date(this.o.clock.now()),
      text: body.text ?? 'This is a simulated reply (errand email simulate-reply).',
      ...(body.html === undefined ? {} : { html: body.html }),
      newline: 'win',
      disableFileAccess: true,
      disableUrlAccess: true,
    })
      .compile()
      .build();
    const [id] = await this.o.inbound.processor.process({ raw, client: null, destinations: [destination] });
    return this.o.received.get(orgId, id!);
  }
}
