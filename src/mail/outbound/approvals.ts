import { isoTime, type Clock } from '../../clock.js';
import { ConflictError, NotFoundError } from '../../errors.js';
import type { EventBus } from '../../events.js';
import type { EmailRow, EmailStatus } from '../../store/emails-store.js';
import type { Store } from '../../store/store.js';
import { emailLifecycle, recipientLifecycle } from './email-lifecycle.js';

export interface PendingEmail {
  id: string;
  org_id: string;
  from_address: string;
  subject: string;
  recipients: string[];
  send_at: string | null;
  created_at: string;
}

export interface ApprovalOutcome {
  id: string;
  /** `sent` or `scheduled` once approved, `rejected` once rejected. */
  status: EmailStatus;
}

/**
 * The human gate on an organisation's sends (`pending_approval`): whether its sends wait, and the decisions on
 * those that do. An administrator's work on the data directory, never the API's: the API key that sends must not
 * be able to approve. An approved message goes on the outbound queue, where the daemon's worker finds it on its
 * next look; a rejected one is never sent.
 */
export class Approvals {
  constructor(private readonly o: { store: Store; clock: Clock; events: EventBus }) {}

  setRequired(orgId: string, required: boolean): void {
    const at = isoTime(this.o.clock.now());
    this.o.store.transaction((uow) => {
      if (this.o.store.mailboxes.identity(orgId) === undefined) throw new NotFoundError('email identity', orgId);
      this.o.store.mailboxes.patchIdentity(uow, orgId, { require_approval: required ? 1 : 0, updated_at: at });
    });
  }

  isRequired(orgId: string): boolean {
    return this.o.store.mailboxes.identity(orgId)?.require_approval === 1;
  }

  pending(orgId: string | null): PendingEmail[] {
    return this.o.store.emails
      .pendingApproval()
      .filter((row) => orgId === null || row.org_id === orgId)
      .map((row) => ({
        id: row.id,
        org_id: row.org_id,
        from_address: row.from_address,
        subject: row.subject,
        recipients: this.o.store.emails.recipients(row.id).filter((r) => r.status === 'queued').map((r) => r.address),
        send_at: row.send_at,
        created_at: row.created_at,
      }));
  }

  approve(id: string): ApprovalOutcome {
    const now = this.o.clock.now();
    return this.decide(id, (email) => {
      const sendAt = email.send_at === null ? now : Date.parse(email.send_at);
      const to: EmailStatus = sendAt > now ? 'scheduled' : 'sent';
      this.o.store.transaction((uow) => {
        if (!this.o.store.emails.setStatus(uow, id, emailLifecycle.move('pending_approval', to), isoTime(now))) throw decided(id);
        this.o.store.emails.enqueue(uow, id, Math.max(now, sendAt));
        uow.afterCommit(() => this.o.events.emit('wake.email_queued', { emailId: id }));
      });
      return to;
    });
  }

  reject(id: string): ApprovalOutcome {
    const at = isoTime(this.o.clock.now());
    return this.decide(id, () => {
      this.o.store.transaction((uow) => {
        if (!this.o.store.emails.setStatus(uow, id, emailLifecycle.move('pending_approval', 'rejected'), at)) throw decided(id);
        for (const r of this.o.store.emails.recipients(id)) {
          if (r.status === 'queued') this.o.store.emails.setRecipientStatus(uow, id, r.address, recipientLifecycle.move(r.status, 'rejected'), 'the send was rejected by an administrator', at);
        }
      });
      return 'rejected';
    });
  }

  private decide(id: string, act: (email: EmailRow) => EmailStatus): ApprovalOutcome {
    const email = this.o.store.emails.getAnyOrg(id);
    if (email === undefined) throw new NotFoundError('email', id);
    if (email.status !== 'pending_approval') throw decided(id, email.status);
    return { id, status: act(email) };
  }
}

function decided(id: string, status?: EmailStatus): ConflictError {
  return new ConflictError('email_not_pending', `Email ${id} is not waiting for approval${status === undefined ? '' : ` (it is ${status})`}`);
}
