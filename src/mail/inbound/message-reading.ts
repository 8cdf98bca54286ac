import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import { normalizeAddress } from '../addresses.js';
import type { AuthChecker, AuthVerdicts, SmtpClient } from './auth-verdicts.js';
import { readReport, type Report } from './delivery-reports.js';
import { htmlToText } from '../html-text.js';
import { replyText } from './reply-text.js';

/** Text and HTML bodies are kept, and sent in webhooks, up to this many characters each (`truncated` says when cut). */
export const BODY_LIMIT_CHARS = 256 * 1024;
/** HTML longer than this is not turned into text for a message that has no text part. */
const HTML_TO_TEXT_LIMIT = 2 * 1024 * 1024;

/** A message mailparser could not read at all: refused for good (554), since sending it again cannot help. */
export class MalformedMessageError extends Error {}

/** Everything the inbound processor needs of a message, read once for all its destinations. */
export interface MessageReading {
  messageId: string | null;
  inReplyTo: string | null;
  /** References, newest last. */
  references: string[];
  from: string;
  fromName: string | null;
  to: string[];
  subject: string;
  text: string;
  html: string | null;
  reply: string;
  truncated: boolean;
  verdicts: AuthVerdicts;
  /** Why the verdicts are temperror, when they are. */
  authError: string | null;
  report: Report | null;
  attachments: { filename: string | null; contentType: string; content: Buffer }[];
}

/** The verdicts of a message that no client sent (a simulated reply): nothing was checked, so nothing passed. */
const UNCHECKED: AuthVerdicts = { spf: 'none', dkim: 'none', dmarc: 'none', spf_domain: null, dkim_domains: [], from_domain: null, dkim_aligned: false, spf_aligned: false };

/**
 * Reads a received message: parsed with mailparser, its SPF, DKIM and DMARC verdicts taken (none for a message
 * without an SMTP client, which is simulated), its quoted history stripped, and its delivery or feedback report read
 * if it is one.
 */
export async function readMessage(raw: Buffer, client: SmtpClient | null, auth: AuthChecker): Promise<MessageReading> {
  let parsed: ParsedMail;
  try {
    // mailparser's own HTML-to-text conversion is skipped: an HTML-only message's text comes from htmlToText below,
    // one pass over the input that no hostile HTML makes slow.
    parsed = await simpleParser(raw, { skipHtmlToText: true, skipImageLinks: true, skipTextToHtml: true, skipTextLinks: true });
  } catch (err) {
    throw new MalformedMessageError(`the message could not be parsed: ${(err as Error).message}`);
  }
  const sender = parsed.from?.value[0];
  const from = sender?.address ? normalizeAddress(sender.address) : (client?.sender ?? '');
  let authError: string | null = null;
  const verdicts =
    client === null
      ? UNCHECKED
      : await auth.check(raw, client, from).catch((err: unknown): AuthVerdicts => {
          authError = (err as Error).message;
          return { spf: 'temperror', dkim: 'temperror', dmarc: 'temperror', spf_domain: null, dkim_domains: [], from_domain: null, dkim_aligned: false, spf_aligned: false };
        });
  const fullHtml = typeof parsed.html === 'string' ? parsed.html : null;
  const fullText = parsed.text ?? (fullHtml === null ? '' : htmlToText(fullHtml.slice(0, HTML_TO_TEXT_LIMIT)));
  const references = typeof parsed.references === 'string' ? [parsed.references] : (parsed.references ?? []);
  return {
    messageId: parsed.messageId ?? null,
    inReplyTo: parsed.inReplyTo ?? null,
    references,
    from,
    fromName: sender?.name ? sender.name : null,
    to: addressesOf(parsed.to),
    subject: parsed.subject ?? '',
    text: fullText.slice(0, BODY_LIMIT_CHARS),
    html: fullHtml === null ? null : fullHtml.slice(0, BODY_LIMIT_CHARS),
    reply: replyText(fullText),
    truncated: fullText.length > BODY_LIMIT_CHARS || (fullHtml?.length ?? 0) > BODY_LIMIT_CHARS,
    verdicts,
    authError,
    report: readReport(raw, parsed.headers.get('content-type') as { value: string; params: Record<string, string> } | undefined),
    attachments: parsed.attachments.map((a) => ({ filename: a.filename ?? null, contentType: a.contentType || 'application/octet-stream', content: a.content })),
  };
}

function addressesOf(field: AddressObject | AddressObject[] | undefined): string[] {
  const objects = field === undefined ? [] : Array.isArray(field) ? field : [field];
  return objects.flatMap((o) => o.value.flatMap((v) => (v.address ? [normalizeAddress(v.address)] : [])));
}
