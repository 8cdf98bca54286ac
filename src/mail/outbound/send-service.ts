import { isoTime } from '../../clock.js';
import { ConflictError, InvalidRequestError, NotFoundError } from '../../errors.js';
import type { Resources } from '../../resources.js';
import { requestHash } from '../../runs/request-hash.js';
import type { EmailRow, EmailStatus, RecipientKind, RecipientRow } from '../../store/emails-store.js';
import type { IdentityRow, MailboxRow } from '../../store/mailboxes-store.js';
import { normalizeAddress } from '../addresses.js';
import type { SendEmailBody } from '../email-schemas.js';
import { renderBody } from './body-rendering.js';
import type { DkimSigner } from './dkim-signer.js';
import type { EmailSendResult, ReplyTo } from './email-record.js';
import { installationNotConfigured, requireIdentity, type IdentityService } from '../identity/identity-service.js';
import { canSend, type MailSettings } from '../mail-settings.js';
import type { MailTokens } from '../mail-tokens.js';
import { buildMime } from './mime-builder.js';
import { plural } from '../../text/plural.js';

export interface SentEmail {
  body: EmailSendResult;
  /** True when `client_id` matched an earlier send: `body` is that send's 202 body, and nothing was sent. */
  replayed: boolean;
}

export interface SendServiceOptions {
  settings: MailSettings;
  identities: IdentityService;
  tokens: MailTokens;
  signer: DkimSigner;
}

interface Recipient {
  address: string;
  kind: RecipientKind;
}

/** A send, as POST /emails, POST /inboxes/{id}/messages and the send_email tool ask for one. */
export interface SendRequest {
  orgId: string;
  /** The API key the request came with, if any. */
  keyId: string | null;
  /** The inbox it is sent from; null sends from the organisation's identity (POST /emails). */
  inboxId: string | null;
  body: SendEmailBody;
  /** The `metadata` member's text as the caller wrote it, kept to be echoed byte for byte on the reply webhook. */
  metadataJson: string | null;
}

/** A send that nothing refused: who sends it, to whom, and when. */
interface CheckedSend {
  request: SendRequest;
  identity: IdentityRow;
  mailbox: MailboxRow;
  recipients: Recipient[];
  suppressed: Set<string>;
  /** How many recipients are not suppressed: what the daily cap counts. */
  deliverable: number;
  now: number;
  sendAt: number | null;
  /** Given a `client_id`: what an earlier send with it must have hashed to, to be replayed. */
  idempotency: { clientId: string; hash: string } | null;
}

/** A `client_id` seen before, with the same message, answers that send; any other send goes on to be composed. */
type Validation = { kind: 'replay'; sent: SentEmail } | { kind: 'new'; send: CheckedSend };

/** The message built and signed, with the rows that hold it. */
interface ComposedEmail {
  row: EmailRow;
  recipients: RecipientRow[];
  accepted: EmailSendResult;
}

/**
 * Sends from an organisation's identity or one of its inboxes, in three steps: validate (everything that can
 * refuse a send, before anything is written), compose (addresses, Reply-To, the MIME message and its DKIM
 * signature, built once), persist (the message with its recipients and its place on the outbound queue in one
 * transaction, so the 202 means it is durably queued: the outbound worker delivers it, after a crash too).
 */
export class SendService {
  constructor(
    private readonly r: Resources,
    private readonly o: SendServiceOptions,
  ) {}

  async send(request: SendRequest): Promise<SentEmail> {
    const validation = this.validate(request);
    if (validation.kind === 'replay') return validation.sent;
    return this.persist(validation.send, await this.compose(validation.send));
  }

  /** Every refusal, in the order the API answers them; reads only, so that a refused send leaves nothing behind. */
  private validate(request: SendRequest): Validation {
    const { orgId, inboxId, body } = request;
    if (!canSend(this.o.settings)) {
      throw installationNotConfigured(this.o.settings.relayDomain === null ? 'relay_domain' : 'relay');
    }
    const { identity, mailbox: identityMailbox } = requireIdentity(this.o.identities.find(orgId));
    const mailbox = inboxId === null ? identityMailbox : this.inbox(orgId, inboxId);
    if (body.text === undefined && body.body_markdown === undefined && body.body_html === undefined) {
      throw new InvalidRequestError('missing_parameter', 'A message needs text, body_markdown or body_html', { param: 'text' });
    }
    const recipients = recipientsOf(body);
    if (recipients.length > this.o.settings.maxRecipients) {
      throw new InvalidRequestError(
        'too_many_recipients',
        `A message may have at most ${this.o.settings.maxRecipients} recipients (to, cc and bcc together; mail.max_recipients), this one has ${recipients.length}`,
        { param: 'to' },
      );
    }
    const now = this.r.clock.now();
    const sendAt = body.send_at === undefined ? null : Date.parse(body.send_at);
    const { client_id: clientId, ...hashed } = body;
    const idempotency = clientId === undefined ? null : { clientId, hash: requestHash(hashed) };
    if (idempotency !== null) {
      const replay = this.replay(orgId, mailbox.id, idempotency);
      if (replay !== null) return { kind: 'replay', sent: replay };
    }

    const suppressed = this.r.store.suppressions.suppressedAmong(orgId, recipients.map((r) => r.address));
    const deliverable = recipients.filter((r) => !suppressed.has(r.address)).length;
    if (deliverable === 0) {
      throw new InvalidRequestError('all_recipients_suppressed', `Every recipient is suppressed after a hard bounce or a complaint: ${[...suppressed].join(', ')}`, {
        param: 'to',
      });
    }
    this.assertUnderCap(orgId, now, deliverable);
    return { kind: 'new', send: { request, identity, mailbox, recipients, suppressed, deliverable, now, sendAt, idempotency } };
  }

  /** The message as it will be sent, built and signed once: a retry of the delivery sends these bytes. */
  private async compose(send: CheckedSend): Promise<ComposedEmail> {
    const { request, identity, mailbox, suppressed, now, sendAt } = send;
    const { orgId, body } = request;
    const sender = this.o.identities.sender(identity, mailbox);
    const token = this.o.tokens.correlationToken();
    const id = this.r.ids('msg');
    const correlationAddress = `${sender.username}+${token}@${sender.replyDomain ?? sender.domain}`;
    const replyTo: ReplyTo =
      body.reply_to !== undefined
        ? { address: body.reply_to, reason: 'override', detail: 'replies go to the reply_to the caller gave; they are not correlated' }
        : sender.replyDomain === null
          ? { address: null, reason: 'none', detail: sender.detail }
          : { address: correlationAddress, reason: sender.reason, detail: sender.detail };
    const fromName = body.from_name ?? mailbox.display_name ?? this.r.store.orgs.get(orgId)?.name ?? sender.username;
    const rendered = renderBody(body);
    const messageIdHeader = `<${id}@${sender.domain}>`;
    const mime = await this.o.signer.sign(
      await buildMime({
        messageId: messageIdHeader,
        date: new Date(now),
        from: { name: fromName, address: sender.fromAddress },
        to: Array.isArray(body.to) ? body.to : [body.to],
        cc: body.cc ?? [],
        replyTo: replyTo.address,
        subject: body.subject,
        text: rendered.text,
        html: rendered.html,
      }),
      sender.domain,
    );

    const status: EmailStatus = identity.require_approval === 1 ? 'pending_approval' : sendAt !== null && sendAt > now ? 'scheduled' : 'sent';
    const accepted: EmailSendResult = {
      message_id: id,
      from_address: sender.fromAddress,
      correlation_token: token,
      status,
      reply_to: replyTo,
      suppressed: [...suppressed],
    };
    const at = isoTime(now);
    const row: EmailRow = {
      id,
      org_id: orgId,
      mailbox_id: mailbox.id,
      key_id: request.keyId,
      status,
      from_address: sender.fromAddress,
      from_name: fromName,
      subject: body.subject,
      reply_to_address: replyTo.address,
      reply_to_reason: replyTo.reason,
      reply_to_detail: replyTo.detail,
      correlation_token: token,
      envelope_from: sender.replyDomain === null ? sender.fromAddress : correlationAddress,
      message_id_header: messageIdHeader,
      metadata: request.metadataJson,
      client_id: send.idempotency?.clientId ?? null,
      request_hash: send.idempotency?.hash ?? null,
      send_at: sendAt === null ? null : isoTime(sendAt),
      recipient_count: send.deliverable,
      mime,
      accepted: JSON.stringify(accepted),
      created_at: at,
      updated_at: at,
    };
    const recipients: RecipientRow[] = send.recipients.map((r) => ({
      email_id: id,
      address: r.address,
      kind: r.kind,
      status: suppressed.has(r.address) ? 'suppressed' : 'queued',
      detail: suppressed.has(r.address) ? 'suppressed after a hard bounce or a complaint' : null,
      updated_at: at,
    }));
    return { row, recipients, accepted };
  }

  /** The message, its recipients and its place on the outbound queue, in one transaction. */
  private persist(send: CheckedSend, email: ComposedEmail): SentEmail {
    const { store } = this.r;
    const { orgId } = send.request;
    const { row } = email;
    const { now } = send;
    return store.transaction((uow) => {
      // Checked again inside the transaction: a concurrent request with the same client_id, or one that used up
      // the cap, may have committed while this one was building its message.
      if (send.idempotency !== null) {
        const replay = this.replay(orgId, send.mailbox.id, send.idempotency);
        if (replay !== null) return replay;
      }
      this.assertUnderCap(orgId, now, send.deliverable);
      store.emails.insert(uow, row, email.recipients, row.status === 'pending_approval' ? null : Math.max(now, send.sendAt ?? now));
      if (row.status !== 'pending_approval') {
        uow.afterCommit(() => this.r.events.emit('wake.email_queued', { emailId: row.id }));
      }
      return { body: email.accepted, replayed: false };
    });
  }

  private inbox(orgId: string, inboxId: string): MailboxRow {
    const mailbox = this.r.store.mailboxes.get(orgId, inboxId);
    if (mailbox === undefined || mailbox.kind !== 'inbox') throw new NotFoundError('inbox', inboxId);
    return mailbox;
  }

  private replay(orgId: string, mailboxId: string, idempotency: { clientId: string; hash: string }): SentEmail | null {
    const prior = this.r.store.emails.byClientId(orgId, mailboxId, idempotency.clientId);
    if (prior === undefined) return null;
    if (prior.request_hash !== idempotency.hash) {
      throw new ConflictError('idempotency_key_reused', 'This client_id was already used with a different message', { param: 'client_id' });
    }
    return { body: JSON.parse(prior.accepted) as EmailSendResult, replayed: true };
  }

  private assertUnderCap(orgId: string, nowMs: number, recipients: number): void {
    const cap = this.o.settings.dailySendCap;
    const sent = this.r.store.emails.recipientsSentSince(orgId, isoTime(startOfUtcDay(nowMs)));
    if (sent + recipients > cap) {
      throw new InvalidRequestError(
        'send_cap_reached',
        `The organisation has sent to ${plural(sent, 'recipient')} today (UTC); this message's ${recipients} would pass the daily cap of ${cap} (mail.daily_send_cap)`,
      );
    }
  }
}

/** Every recipient once, lower-cased: a recipient in `to` is not sent again as cc or bcc. */
function recipientsOf(body: SendEmailBody): Recipient[] {
  const seen = new Set<string>();
  const out: Recipient[] = [];
  const add = (list: readonly string[], kind: RecipientKind) => {
    for (const given of list) {
      const address = normalizeAddress(given);
      if (seen.has(address)) continue;
      seen.add(address);
      out.push({ address, kind });
    }
  };
  add(Array.isArray(body.to) ? body.to : [body.to], 'to');
  add(body.cc ?? [], 'cc');
  add(body.bcc ?? [], 'bcc');
  return out;
}

function startOfUtcDay(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
}
