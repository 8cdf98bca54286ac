import { escapeRegExp } from '../../text/escape-regexp.js';

/** One recipient's block of an RFC 3464 delivery-status report. */
export interface RecipientReport {
  /** Final-Recipient (else Original-Recipient), without its address type. */
  address: string;
  /** `failed`, `delayed`, `delivered`, `relayed`, `expanded`. */
  action: string;
  /** The enhanced status code (`5.1.1`). */
  status: string;
  diagnostic: string | null;
}

export type Report =
  | { kind: 'delivery-status'; recipients: RecipientReport[] }
  /** RFC 5965 feedback report (a complaint, usually `abuse`). */
  | { kind: 'feedback'; feedbackType: string; userAgent: string | null; originalRcptTo: string[] };

/** The largest report part read: reports are a few fields per recipient; the rest of the message is not read. */
const PART_LIMIT = 256 * 1024;

/**
 * Reads the machine part of a `multipart/report` message (RFC 6522): the `message/delivery-status` fields of a
 * bounce (RFC 3464), or the `message/feedback-report` fields of a complaint (RFC 5965). mailparser flattens those
 * parts into the text, so the top-level parts are split here. Anything that is not such a report, or that is
 * malformed, is null: the message is then handled as ordinary mail.
 */
export function readReport(raw: Buffer, contentType: { value: string; params: Record<string, string> } | undefined): Report | null {
  if (contentType?.value.toLowerCase() !== 'multipart/report') return null;
  const reportType = contentType.params['report-type']?.toLowerCase();
  const boundary = contentType.params.boundary;
  if (boundary === undefined || (reportType !== 'delivery-status' && reportType !== 'feedback-report')) return null;
  const wanted = reportType === 'delivery-status' ? 'message/delivery-status' : 'message/feedback-report';
  const part = topLevelParts(raw, boundary).find((p) => (p.headers.get('content-type') ?? '').toLowerCase().split(';')[0]!.trim() === wanted);
  if (part === undefined) return null;
  const groups = fieldGroups(decodeBody(part.body, part.headers.get('content-transfer-encoding')));
  if (reportType === 'feedback-report') {
    const fields = groups[0];
    const feedbackType = fields?.get('feedback-type')?.[0];
    if (fields === undefined || feedbackType === undefined) return null;
    return {
      kind: 'feedback',
      feedbackType: feedbackType.toLowerCase(),
      userAgent: fields.get('user-agent')?.[0] ?? null,
      originalRcptTo: (fields.get('original-rcpt-to') ?? []).map(stripAddressType),
    };
  }
  // The first group describes the reporting MTA; each further one is a recipient.
  const recipients = groups.slice(1).flatMap((fields): RecipientReport[] => {
    const address = fields.get('final-recipient')?.[0] ?? fields.get('original-recipient')?.[0];
    const action = fields.get('action')?.[0];
    const status = /\d\.\d{1,3}\.\d{1,3}/.exec(fields.get('status')?.[0] ?? '')?.[0];
    if (address === undefined || action === undefined || status === undefined) return [];
    return [{ address: stripAddressType(address), action: action.toLowerCase(), status, diagnostic: fields.get('diagnostic-code')?.[0] ?? null }];
  });
  return recipients.length === 0 ? null : { kind: 'delivery-status', recipients };
}

interface Part {
  headers: Map<string, string>;
  body: string;
}

function topLevelParts(raw: Buffer, boundary: string): Part[] {
  const text = raw.subarray(0, Math.min(raw.length, 4 * PART_LIMIT)).toString('latin1');
  const bodyStart = text.search(/\r?\n\r?\n/);
  if (bodyStart < 0) return [];
  const delimiter = `--${boundary}`;
  const parts: Part[] = [];
  for (const chunk of text.slice(bodyStart).split(new RegExp(`\\r?\\n${escapeRegExp(delimiter)}`)).slice(1)) {
    if (chunk.startsWith('--')) break;
    const split = chunk.search(/\r?\n\r?\n/);
    const head = split < 0 ? chunk : chunk.slice(0, split);
    const body = split < 0 ? '' : chunk.slice(split).replace(/^\r?\n\r?\n/, '');
    parts.push({ headers: headerMap(head), body: body.slice(0, PART_LIMIT) });
  }
  return parts;
}

function headerMap(head: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of unfold(head)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

/** Blocks of `Name: value` fields separated by blank lines; a field may appear more than once. */
function fieldGroups(text: string): Map<string, string[]>[] {
  return text
    .split(/\r?\n[ \t]*\r?\n/)
    .map((block) => {
      const fields = new Map<string, string[]>();
      for (const line of unfold(block)) {
        const colon = line.indexOf(':');
        if (colon <= 0) continue;
        const name = line.slice(0, colon).trim().toLowerCase();
        fields.set(name, [...(fields.get(name) ?? []), line.slice(colon + 1).trim()]);
      }
      return fields;
    })
    .filter((fields) => fields.size > 0);
}

function unfold(block: string): string[] {
  return block
    .replace(/^\r?\n+/, '')
    .replace(/\r?\n[ \t]+/g, ' ')
    .split(/\r?\n/);
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch ((encoding ?? '').toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    case 'quoted-printable':
      return Buffer.from(
        body.replace(/=\r?\n/g, '').replace(/=([0-9a-f]{2})/gi, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
        'latin1',
      ).toString('utf8');
    default:
      return Buffer.from(body, 'latin1').toString('utf8');
  }
}

/** `rfc822; jane@example.com` is `jane@example.com`; angle brackets go too. */
function stripAddressType(value: string): string {
  const semicolon = value.indexOf(';');
  return (semicolon < 0 ? value : value.slice(semicolon + 1)).trim().replace(/^<|>$/g, '').toLowerCase();
}
