import { Lifecycle } from '../../lifecycle.js';
import type { EmailStatus, RecipientStatus } from '../../store/emails-store.js';

/**
 * A sent message's status. `pending_approval` waits for an administrator (approvals.ts), who sends it at once or
 * schedules it; `scheduled` waits for its send_at and becomes `sent` with the outbound worker's first attempt.
 */
export const emailLifecycle = new Lifecycle<EmailStatus>('email', {
  pending_approval: ['sent', 'scheduled', 'rejected'],
  scheduled: ['sent'],
  sent: [],
  rejected: [],
});

/**
 * A recipient's status. The outbound worker's attempts move `queued` and `deferred` recipients (deferred again
 * records the relay's latest answer); a rejected send rejects its queued ones; a report that comes back to the
 * message after the relay accepted it makes a delivered recipient bounced (RFC 3464) or complained (RFC 5965).
 * `suppressed` recipients are never sent to, and the other statuses are final: a later report about them changes
 * nothing but is still announced (suppressions.ts).
 */
export const recipientLifecycle = new Lifecycle<RecipientStatus>('email recipient', {
  queued: ['delivered', 'deferred', 'bounced', 'failed', 'rejected'],
  deferred: ['delivered', 'deferred', 'bounced', 'failed'],
  delivered: ['bounced', 'complained'],
  bounced: [],
  complained: [],
  failed: [],
  suppressed: [],
  rejected: [],
});
