import { isoTime, type Clock } from '../../clock.js';
import { NotFoundError } from '../../errors.js';
import type { ListResponse } from '../../pagination.js';
import type { EmailRow, RecipientStatus } from '../../store/emails-store.js';
import type { Store } from '../../store/store.js';
import type { SuppressionRow } from '../../store/suppressions-store.js';
import type { UnitOfWork } from '../../store/unit-of-work.js';
import { normalizeAddress } from '../addresses.js';
import type { SuppressionListQuery } from '../email-schemas.js';
import type { EventAnnouncer } from '../../event-log/event-announcer.js';
import { recipientLifecycle } from './email-lifecycle.js';

export interface Suppression {
  object: 'email_suppression';
  address: string;
  reason: 'bounce' | 'complaint';
  detail: string | null;
  email_id: string | null;
  created_at: string;
}

export interface Bounce {
  /** The enhanced status code (`5.1.1`), when the relay or the report gave one. */
  status: string | null;
  diagnostic: string | null;
  /** `relay`: refused while we sent; `report`: a delivery-status report (RFC 3464) came back. */
  source: 'relay' | 'report';
}

export interface Complaint {
  feedbackType: string;
  userAgent: string | null;
}

/**
 * The organisation's suppression list and what puts recipients on it: a hard bounce (a 5xx from the relay, or an
 * RFC 3464 report with a 5.x.x status) or a complaint (an RFC 5965 feedback report). Each is recorded on the sent
 * message's recipient and announced as `email.bounced` / `email.complained`, in the caller's unit of work.
 */
export class Suppressions {
  constructor(private readonly o: { store: Store; clock: Clock; announcer: EventAnnouncer }) {}

  list(orgId: string, q: SuppressionListQuery): ListResponse<Suppression> {
    const page = this.o.store.suppressions.list(orgId, q.limit, q.cursor ?? null);
    const last = page.items.at(-1);
    return { object: 'list', data: page.items.map(toSuppression), has_more: page.hasMore, next_cursor: page.hasMore && last ? last.address : null };
  }

  remove(orgId: string, address: string): { address: string; object: 'email_suppression'; deleted: true } {
    const normalized = normalizeAddress(address);
    const removed = this.o.store.transaction(() => this.o.store.suppressions.remove(orgId, normalized));
    if (!removed) throw new NotFoundError('suppression', address, 'address');
    return { address: normalized, object: 'email_suppression', deleted: true };
  }

  hardBounce(uow: UnitOfWork, email: EmailRow, recipient: string, bounce: Bounce): void {
    const address = normalizeAddress(recipient);
    const at = isoTime(this.o.clock.now());
    const detail = [bounce.status, bounce.diagnostic].filter((p) => p !== null && p !== '').join(' ') || 'hard bounce';
    this.suppress(uow, email, address, 'bounce', detail, at);
    this.o.announcer.announce(uow, {
      type: 'email.bounced',
      orgId: email.org_id,
      mailboxId: email.mailbox_id,
      data: {
        message_id: email.id,
        correlation_token: email.correlation_token,
        recipient: address,
        status: bounce.status,
        diagnostic: bounce.diagnostic,
        source: bounce.source,
        suppressed: true,
        bounced_at: at,
      },
      verbatimJson: email.metadata,
    });
  }

  complaint(uow: UnitOfWork, email: EmailRow, recipient: string | null, complaint: Complaint): void {
    const address = recipient === null ? null : normalizeAddress(recipient);
    const at = isoTime(this.o.clock.now());
    if (address !== null) {
      const detail = `complaint (${complaint.feedbackType})`;
      this.suppress(uow, email, address, 'complaint', detail, at);
    }
    this.o.announcer.announce(uow, {
      type: 'email.complained',
      orgId: email.org_id,
      mailboxId: email.mailbox_id,
      data: {
        message_id: email.id,
        correlation_token: email.correlation_token,
        recipient: address,
        feedback_type: complaint.feedbackType,
        user_agent: complaint.userAgent,
        suppressed: address !== null,
        complained_at: at,
      },
      verbatimJson: email.metadata,
    });
  }

  /** Marks the recipient (bounced or complained) and puts its address on the organisation's list. */
  private suppress(uow: UnitOfWork, email: EmailRow, address: string, reason: 'bounce' | 'complaint', detail: string, at: string): void {
    this.mark(uow, email, address, reason === 'bounce' ? 'bounced' : 'complained', detail, at);
    this.o.store.suppressions.add(uow, { org_id: email.org_id, address, reason, detail, email_id: email.id, created_at: at });
  }

  /**
   * Moves the recipient to `to` where its lifecycle allows: a recipient the relay refused is already bounced by the
   * attempt that heard it, and a second report, or a complaint about a bounced recipient, leaves it as it was.
   */
  private mark(uow: UnitOfWork, email: EmailRow, address: string, to: RecipientStatus, detail: string, at: string): void {
    const was = this.o.store.emails.recipients(email.id).find((r) => r.address === address)?.status;
    if (was === undefined || !recipientLifecycle.canMove(was, to)) return;
    this.o.store.emails.setRecipientStatus(uow, email.id, address, recipientLifecycle.move(was, to), detail, at);
  }
}

function toSuppression(row: SuppressionRow): Suppression {
  return { object: 'email_suppression', address: row.address, reason: row.reason, detail: row.detail, email_id: row.email_id, created_at: row.created_at };
}
