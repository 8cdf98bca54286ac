/** What the relay said about one recipient of an attempt. */
export interface RecipientOutcome {
  address: string;
  /**
   * delivered: the relay took it; deferred: try again later; bounced: the relay refused this recipient for good
   * (suppressed from then on); failed: the relay refused the message itself for good (the recipient is not blamed).
   */
  outcome: 'delivered' | 'deferred' | 'bounced' | 'failed';
  detail: string | null;
}

export interface SmtpEnvelope {
  from: string;
  to: readonly string[];
}

/** Where built messages go: a relay over SMTP, or files in the data directory (`mail.transport=capture`). */
export interface MailTransport {
  /** Sends `raw` to the envelope's recipients; never throws for what the relay answered, only reports it. */
  send(emailId: string, envelope: SmtpEnvelope, raw: Buffer): Promise<RecipientOutcome[]>;
  close(): Promise<void>;
}

/** The transport while no relay is configured: messages queued earlier wait (deferred) until one is. */
export const noRelayTransport: MailTransport = {
  async send(_emailId, envelope) {
    return envelope.to.map((address) => ({ address, outcome: 'deferred', detail: 'no outbound relay is configured (mail.smtp_url)' }));
  },
  async close() {},
};
