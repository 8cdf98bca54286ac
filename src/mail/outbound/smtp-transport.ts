import nodemailer from 'nodemailer';
import type SMTPPool from 'nodemailer/lib/smtp-pool/index.js';
import type { MailTransport, RecipientOutcome, SmtpEnvelope } from './mail-transport.js';

interface SmtpError extends Error {
  code?: string;
  responseCode?: number;
  response?: string;
  recipient?: string;
  rejectedErrors?: SmtpError[];
}

export interface SmtpTransportOptions {
  /** `mail.smtp_url`; may carry credentials, so it is never logged or put in an error. */
  url: string;
  /** `mail.smtp_allow_plaintext_auth`: the password may go without TLS (a loopback relay only; checked at start). */
  allowPlaintextAuth?: boolean;
  timeoutMs: number;
  /** The name this host gives in EHLO. */
  clientName: string;
  maxConnections?: number;
}

/**
 * Sends through the configured relay with nodemailer's pooled SMTP transport: STARTTLS when the relay offers it
 * (smtp://), TLS from the start with smtps://, authentication when the URL names a user. With a password, an smtp://
 * connection upgrades with STARTTLS before it logs in or gives up, whatever the relay announced, so that neither a
 * relay without TLS nor someone on the path who strips STARTTLS from its answer gets the password in clear text
 * (issue 21); `mail.smtp_allow_plaintext_auth` lets it go to a loopback relay. The relay's answers are
 * sorted per recipient: 2xx delivered, 4xx at RCPT deferred, 5xx at RCPT bounced. An answer about the message rather
 * than one recipient is not a bounce: 5xx at MAIL FROM or DATA fails the message, and no connection, no TLS, a
 * refused login or a 4xx defers it (a relay's password can be fixed while the queue waits).
 */
export class SmtpTransport implements MailTransport {
  private readonly transporter;
  private readonly requiresTls: boolean;

  constructor(o: SmtpTransportOptions) {
    // Read here rather than given to nodemailer as `url`, whose query would set options (requireTLS=false among them).
    const url = new URL(o.url);
    const secure = url.protocol === 'smtps:';
    const auth = url.username === '' && url.password === '' ? null : { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) };
    this.requiresTls = auth !== null && !secure && o.allowPlaintextAuth !== true;
    const options: SMTPPool.Options = {
      host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
      ...(url.port === '' ? {} : { port: Number(url.port) }),
      secure,
      ...(auth === null ? {} : { auth }),
      requireTLS: this.requiresTls,
      pool: true,
      maxConnections: o.maxConnections ?? 4,
      name: o.clientName,
      connectionTimeout: o.timeoutMs,
      greetingTimeout: o.timeoutMs,
      socketTimeout: o.timeoutMs,
      logger: false,
      debug: false,
    };
    this.transporter = nodemailer.createTransport(options);
  }

  async send(_emailId: string, envelope: SmtpEnvelope, raw: Buffer): Promise<RecipientOutcome[]> {
    try {
      const info = await this.transporter.sendMail({ envelope: { from: envelope.from, to: [...envelope.to] }, raw });
      const refused = new Map((info.rejectedErrors ?? []).map((e) => [String((e as SmtpError).recipient).toLowerCase(), e as SmtpError]));
      return envelope.to.map((address) => {
        const err = refused.get(address.toLowerCase());
        return err === undefined ? { address, outcome: 'delivered', detail: relayAnswer(info.response) } : perRecipient(address, err);
      });
    } catch (err) {
      const e = err as SmtpError;
      const refused = new Map((e.rejectedErrors ?? []).map((r) => [String(r.recipient).toLowerCase(), r]));
      const rest = messageOutcome(e);
      return envelope.to.map((address) => {
        const r = refused.get(address.toLowerCase());
        return r === undefined ? { address, outcome: rest, detail: this.describe(e) } : perRecipient(address, r);
      });
    }
  }

  async close(): Promise<void> {
    this.transporter.close();
  }

  private describe(err: SmtpError): string {
    if (err.code !== 'ETLS') return describe(err);
    const why = err.response === undefined ? `TLS with the relay failed (${err.message})` : `the relay does not take STARTTLS (it answered: ${relayAnswer(err.response)})`;
    return this.requiresTls
      ? `${why}; mail.smtp_url carries a password, which is only sent over TLS (mail.smtp_allow_plaintext_auth allows it to a relay on loopback)`
      : why;
  }
}

function messageOutcome(err: SmtpError): 'failed' | 'deferred' {
  const refusedForGood = (err.code === 'EENVELOPE' || err.code === 'EMESSAGE') && err.responseCode !== undefined && err.responseCode >= 500;
  return refusedForGood ? 'failed' : 'deferred';
}

function perRecipient(address: string, err: SmtpError): RecipientOutcome {
  return { address, outcome: err.responseCode !== undefined && err.responseCode >= 500 ? 'bounced' : 'deferred', detail: describe(err) };
}

/** The relay's own words when it answered; else what went wrong, without anything from the URL. */
function describe(err: SmtpError): string {
  if (err.response !== undefined) return relayAnswer(err.response) ?? 'the relay refused';
  return `${err.code ?? 'ERROR'}: the relay could not be reached or stopped answering`;
}

function relayAnswer(response: string | undefined): string | null {
  return response === undefined ? null : response.slice(0, 500);
}
