import type { EmailRow } from '../../store/emails-store.js';
import type { MailboxRow } from '../../store/mailboxes-store.js';
import type { Store } from '../../store/store.js';
import { parseAddress, RUN_PREFIX } from '../addresses.js';
import type { InboundRefusal } from '../mail-observer.js';
import type { MailTokens } from '../mail-tokens.js';

/** Where mail to one accepted address goes. */
export type Destination =
  /** A correlation address `<username>+<token>@...`: replies, delivery reports and complaints about one sent message. */
  | { kind: 'correlation'; address: string; email: EmailRow; mailbox: MailboxRow }
  /** An identity's or inbox's own address: new mail, or replies matched by In-Reply-To/References. */
  | { kind: 'mailbox'; address: string; mailbox: MailboxRow }
  /** A running run's address. */
  | { kind: 'run'; address: string; runId: string; orgId: string };

export interface Refusal {
  kind: 'refused';
  /** The SMTP reply code: 550 for every address this installation does not receive for. */
  code: number;
  message: string;
  /** Why, for the metrics. */
  reason: InboundRefusal;
}

/**
 * Decides at RCPT TO whether this installation receives mail for an address, so that nothing is accepted that would
 * be dropped later: only the relay domain and verified sending domains, and there only the addresses of identities,
 * inboxes, genuine correlation tokens of messages whose mailbox still exists, and runs that are still running.
 * Everything else is refused with 550: this server is never an open relay.
 */
export class RecipientResolver {
  constructor(
    private readonly o: {
      store: Store;
      tokens: MailTokens;
      relayDomain: string;
    },
  ) {}

  resolve(address: string): Destination | Refusal {
    const parsed = parseAddress(address);
    if (parsed === null) return refused(553, '5.1.3 That is not a mail address', 'invalid_address');
    const { store } = this.o;
    const onRelay = parsed.domain === this.o.relayDomain;
    const domainOrg = onRelay ? null : store.mailboxes.identityByDomain(parsed.domain);
    if (!onRelay && (domainOrg === undefined || domainOrg?.domain_verified_at === null)) return refused(550, '5.7.1 This server does not relay mail for that domain', 'relay_denied');
    const receivesHere = (orgId: string) => onRelay || domainOrg?.org_id === orgId;

    if (onRelay && parsed.local.startsWith(RUN_PREFIX)) {
      const mailbox = store.receivedEmails.runMailbox(parsed.local.slice(RUN_PREFIX.length));
      const run = mailbox === undefined ? undefined : store.runs.getById(mailbox.run_id);
      if (run === undefined || run.status !== 'running') return refused(550, '5.1.1 No such mailbox, or its run has ended', 'unknown_recipient');
      return { kind: 'run', address: parsed.local + '@' + parsed.domain, runId: run.id, orgId: run.org_id };
    }
    if (parsed.tag !== null) {
      if (!this.o.tokens.isCorrelationToken(parsed.tag)) return refused(550, '5.1.1 No such mailbox', 'unknown_recipient');
      const email = store.emails.byCorrelationToken(parsed.tag);
      const mailbox = email === undefined ? undefined : store.mailboxes.getAnyOrg(email.mailbox_id);
      if (email === undefined || mailbox === undefined || !receivesHere(email.org_id)) return refused(550, '5.1.1 No such mailbox', 'unknown_recipient');
      return { kind: 'correlation', address: `${parsed.local}@${parsed.domain}`, email, mailbox };
    }
    const mailbox = store.mailboxes.byUsername(parsed.local);
    if (mailbox === undefined || !receivesHere(mailbox.org_id)) return refused(550, '5.1.1 No such mailbox', 'unknown_recipient');
    return { kind: 'mailbox', address: `${parsed.local}@${parsed.domain}`, mailbox };
  }
}

function refused(code: number, message: string, reason: Refusal['reason']): Refusal {
  return { kind: 'refused', code, message, reason };
}
