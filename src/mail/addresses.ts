import { domainToASCII } from 'node:url';

/**
 * The shape of the installation's addresses: `<username>@<domain>` for identities and inboxes,
 * `<username>+<token>@<domain>` for the correlation address of a sent message, `run-<token>@<relay domain>` for a
 * run's mailbox. Local parts are compared in lower case.
 */

/** 3 to 32 of a-z, 0-9 and hyphen (the spec's Limits). */
export const USERNAME_PATTERN = '^[a-z0-9-]{3,32}$';
const USERNAME = new RegExp(USERNAME_PATTERN);

/** Local parts nobody may take: run mailboxes live under `run-`, and the role addresses of RFC 2142 and 5321. */
const RESERVED = new Set(['postmaster', 'abuse', 'mailer-daemon', 'hostmaster', 'noreply', 'no-reply']);
export const RUN_PREFIX = 'run-';

export function isUsername(value: string): boolean {
  return USERNAME.test(value);
}

export function isReservedUsername(value: string): boolean {
  return RESERVED.has(value) || value.startsWith(RUN_PREFIX);
}

/** A username made from an organisation's name: lower case, runs of anything else as one hyphen, 3-32 long. */
export function usernameFromName(name: string): string | null {
  const slug = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 32)
    .replace(/-+$/, '');
  return isUsername(slug) && !isReservedUsername(slug) ? slug : null;
}

export interface ParsedAddress {
  /** The whole local part, lower-cased. */
  local: string;
  /** The local part before the first `+`. */
  username: string;
  /** What follows the first `+`, or null. */
  tag: string | null;
  domain: string;
}

/** Splits an envelope address; null for anything that is not `local@domain` with a non-empty local part. */
export function parseAddress(address: string): ParsedAddress | null {
  const at = address.lastIndexOf('@');
  if (at <= 0 || at === address.length - 1) return null;
  const local = address.slice(0, at).toLowerCase();
  const domain = address.slice(at + 1).toLowerCase().replace(/\.$/, '');
  const plus = local.indexOf('+');
  return { local, username: plus < 0 ? local : local.slice(0, plus), tag: plus < 0 ? null : local.slice(plus + 1), domain };
}

/** Lower case, as recipients and suppressions are compared. */
export function normalizeAddress(address: string): string {
  return address.trim().toLowerCase();
}

/**
 * The same mailbox: the local part in any case, the domain in its ASCII form (mailparser shows a punycode domain
 * decoded, mailauth as it came). False when either is not `local@domain`.
 */
export function sameMailbox(a: string, b: string): boolean {
  const [x, y] = [parseAddress(a.trim()), parseAddress(b.trim())];
  return x !== null && y !== null && x.local === y.local && domainToASCII(x.domain) === domainToASCII(y.domain) && domainToASCII(x.domain) !== '';
}
