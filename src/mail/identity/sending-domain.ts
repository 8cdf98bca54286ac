import { createPublicKey } from 'node:crypto';
import type { MailResolver } from '../dns-resolver.js';
import type { DkimKey } from '../mail-settings.js';

/** The DNS records an organisation publishes for its own sending domain, as zone-file lines. */
export interface DomainRecords {
  /** Routes replies to this installation's inbound server. */
  mx: string;
  spf: string;
  /** Null when the installation signs nothing (no DKIM key configured). */
  dkim: string | null;
}

export interface DomainCheck {
  domain: string;
  verified: boolean;
  /** The MX hosts found, best first. */
  mx_found: string[];
  expected_mx: string;
  detail: string;
  records: DomainRecords;
}

export interface SendingDomainOptions {
  resolver: MailResolver;
  /** The host MX records must name (`mail.mx_host`). */
  mxHost: string;
  dkim: DkimKey | null;
  /** The outbound relay's host, which the SPF record allows to send. */
  relayHost: string | null;
}

/**
 * A custom sending domain is verified when its MX records name this installation's inbound host: only then do
 * replies to addresses at that domain reach us, and only then does a send thread on it (reply_to.reason
 * `sending_domain`). The SPF and DKIM records are printed for the organisation to publish; they make receivers
 * trust the mail, but are not needed for replies to arrive, so they are not checked.
 */
export class SendingDomains {
  constructor(private readonly o: SendingDomainOptions) {}

  async check(domain: string): Promise<DomainCheck> {
    const found = await this.o.resolver.mxHosts(domain);
    const verified = found.includes(this.o.mxHost);
    const detail = verified
      ? `${domain} has an MX record naming ${this.o.mxHost}: replies to it reach this installation`
      : found.length === 0
        ? `${domain} has no MX record; publish "${this.records(domain).mx}"`
        : `the MX records of ${domain} name ${found.join(', ')}, not ${this.o.mxHost}; publish "${this.records(domain).mx}"`;
    return { domain, verified, mx_found: found, expected_mx: this.o.mxHost, detail, records: this.records(domain) };
  }

  records(domain: string): DomainRecords {
    const allow = this.o.relayHost === null ? 'mx' : `mx a:${this.o.relayHost}`;
    return {
      mx: `${domain}. MX 10 ${this.o.mxHost}.`,
      spf: `${domain}. TXT "v=spf1 ${allow} ~all"`,
      dkim: this.o.dkim === null ? null : `${this.o.dkim.selector}._domainkey.${domain}. TXT "${dkimRecord(this.o.dkim.privateKey)}"`,
    };
  }
}

/** The DKIM key record (RFC 6376 3.6.1) of a private key: RSA as SubjectPublicKeyInfo, Ed25519 as the raw key (RFC 8463). */
export function dkimRecord(privateKeyPem: string): string {
  const key = createPublicKey(privateKeyPem);
  const der = key.export({ type: 'spki', format: 'der' });
  if (key.asymmetricKeyType === 'ed25519') return `v=DKIM1; k=ed25519; p=${der.subarray(der.length - 32).toString('base64')}`;
  return `v=DKIM1; k=rsa; p=${der.toString('base64')}`;
}
