import type { MailTransport, RecipientOutcome, SmtpEnvelope } from '../mail/outbound/mail-transport.js';
import type { OrgModes } from '../orgs/org-modes.js';

/**
 * The outbound mail transport by the sender's mode (issue 25): a test-mode organisation's messages are captured
 * (written to the data directory's mail/test-mode/, as `mail.transport=capture` writes them) and never handed to the
 * relay, even when one is configured; a live organisation's go the configured way.
 */
export class TransportsByMode implements MailTransport {
  constructor(
    private readonly o: {
      /** The organisation that sends an email, or null when it is gone. */
      orgOf: (emailId: string) => string | null;
      modes: OrgModes;
      live: MailTransport;
      test: MailTransport;
    },
  ) {}

  async send(emailId: string, envelope: SmtpEnvelope, raw: Buffer): Promise<RecipientOutcome[]> {
    const orgId = this.o.orgOf(emailId);
    if (orgId !== null && !this.o.modes.livemode(orgId)) {
      const captured = await this.o.test.send(emailId, envelope, raw);
      return captured.map((c) => ({ ...c, detail: `test mode: captured, never sent (${c.detail ?? 'no detail'})` }));
    }
    return this.o.live.send(emailId, envelope, raw);
  }

  async close(): Promise<void> {
    await Promise.all([this.o.live.close(), this.o.test.close()]);
  }
}
