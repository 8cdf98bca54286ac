import MailComposer from 'nodemailer/lib/mail-composer';

/** One message as the outbound queue keeps it; bcc recipients are never part of it, only of the envelope. */
export interface OutgoingMessage {
  /** `<id@domain>`. */
  messageId: string;
  date: Date;
  from: { name: string; address: string };
  to: readonly string[];
  cc: readonly string[];
  /** The correlation address, the caller's own reply_to, or null for none. */
  replyTo: string | null;
  subject: string;
  text: string;
  html: string | null;
}

/**
 * The message as RFC 5322 text, built by nodemailer's MailComposer (which encodes non-ASCII headers and picks
 * transfer encodings): a text part always, and the HTML beside it when there is one. Control characters in the
 * display name and subject become spaces, so no value can start a header of its own (the API refuses CR and LF
 * already; this holds whatever calls it).
 */
export function buildMime(message: OutgoingMessage): Promise<Buffer> {
  const composer = new MailComposer({
    messageId: message.messageId,
    date: message.date,
    from: { name: singleLine(message.from.name), address: message.from.address },
    to: [...message.to],
    ...(message.cc.length === 0 ? {} : { cc: [...message.cc] }),
    ...(message.replyTo === null ? {} : { replyTo: message.replyTo }),
    subject: singleLine(message.subject),
    text: message.text,
    ...(message.html === null ? {} : { html: message.html }),
    newline: 'win',
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  return composer.compile().build();
}

export function singleLine(value: string): string {
  return value.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ');
}
