/**
 * What the mail system tells an observer (the daemon's metrics) about SMTP traffic, in bounded sets: never an
 * address, a domain or an id.
 */

/** Why the inbound SMTP server refused a connection, a recipient or a message. */
export type InboundRefusal =
  /** 550 at RCPT: no identity, inbox, correlation token or running run has that address. */
  | 'unknown_recipient'
  /** 550 at RCPT: a domain this installation does not receive mail for. */
  | 'relay_denied'
  /** 553 at RCPT: not a mail address. */
  | 'invalid_address'
  /** 452 at RCPT: more recipients than one transaction may name. */
  | 'too_many_recipients'
  /** 552 at the end of DATA: over `mail.max_message_bytes`. */
  | 'too_large'
  /** 451 at MAIL FROM: the client passed `mail.inbound_messages_per_minute`. */
  | 'rate_limited'
  /** 421 on connecting: the client already holds `mail.inbound_connections_per_ip` connections. */
  | 'too_many_connections'
  /** 554 at the end of DATA: the message could not be parsed. */
  | 'malformed'
  /** 451: a recipient could not be looked up or the message could not be stored; the sender retries. */
  | 'temporary_failure';

/** What one attempt recorded for one recipient of an outbound message. */
export type OutboundRecipientResult = 'delivered' | 'deferred' | 'bounced' | 'failed';

export interface MailObserver {
  /** A message stored (accepted), or something refused and why. */
  inbound(outcome: 'accepted' | InboundRefusal): void;
  /** One recipient's result of one outbound attempt, as recorded (a deferral past the last retry is `failed`). */
  outbound(result: OutboundRecipientResult): void;
}

/** The observer of a mail system nobody watches. */
export const unobservedMail: MailObserver = {
  inbound() {},
  outbound() {},
};
