import { domainToASCII } from 'node:url';
import { getDomain } from 'tldts';

/** Private suffixes count as public ones (a `github.io` site is not `github.io`'s), as mailauth reads them. */
const PUBLIC_SUFFIXES = { allowIcannDomains: true, allowPrivateDomains: true } as const;

/**
 * DMARC's identifier alignment (RFC 7489, 3.1): whether a domain that authenticated a message (a passing DKIM
 * signature's `d=`, or the MAIL FROM domain SPF passed) aligns with the domain of its From address. Relaxed alignment,
 * DMARC's default, asks for the same organisational domain (the registrable domain under the public suffix list);
 * strict alignment, when the From domain's DMARC record asks for it (`adkim=s`, `aspf=s`), for the same domain.
 */
export function aligns(fromDomain: string, authenticated: string, strict: boolean): boolean {
  const from = asciiDomain(fromDomain);
  const other = asciiDomain(authenticated);
  if (from === '' || other === '') return false;
  if (strict) return from === other;
  return organisationalDomain(from) === organisationalDomain(other);
}

/** The domain of an address, lower case and in its ASCII (punycode) form; '' when it has none. */
export function domainOfAddress(address: string): string {
  const at = address.lastIndexOf('@');
  return at < 0 ? '' : asciiDomain(address.slice(at + 1));
}

function organisationalDomain(domain: string): string {
  return getDomain(domain, PUBLIC_SUFFIXES) ?? domain;
}

function asciiDomain(domain: string): string {
  return domainToASCII(domain.trim().toLowerCase().replace(/\.$/, ''));
}
