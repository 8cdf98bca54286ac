import { authenticate } from 'mailauth';
import type { MailResolver } from '../dns-resolver.js';

/** The results of RFC 8601 (`pass`, `fail`, `softfail`, `neutral`, `none`, `temperror`, `permerror`, ...). */
export interface AuthVerdicts {
  spf: string;
  /** The best DKIM result among the message's signatures: `pass` when any passed. */
  dkim: string;
  dmarc: string;
  /** The domains the verdicts are about: SPF's MAIL FROM domain, the passing DKIM signers, the From domain. */
  spf_domain: string | null;
  dkim_domains: string[];
  from_domain: string | null;
}

export interface SmtpClient {
  /** The connecting client's address. */
  ip: string;
  /** What it said in EHLO/HELO. */
  helo: string;
  /** MAIL FROM, or '' for the null sender of a bounce. */
  sender: string;
}

/**
 * SPF, DKIM and DMARC verdicts of an inbound message, by mailauth (4.x, which runs on Node 20), resolving through
 * `dns.servers`. They are reported, not enforced: the correlation token is what makes a reply trusted, and the
 * caller decides what a failing verdict means to it. ARC and BIMI are not evaluated.
 */
export class AuthChecker {
  constructor(
    private readonly resolver: MailResolver,
    /** Our host name in Authentication-Results terms (`mail.mx_host`). */
    private readonly mta: string,
  ) {}

  async check(raw: Buffer, client: SmtpClient): Promise<AuthVerdicts> {
    const result = await authenticate(raw, {
      ip: client.ip,
      helo: client.helo,
      sender: client.sender,
      mta: this.mta,
      resolver: this.resolver.resolve as never,
      disableArc: true,
      disableBimi: true,
    });
    const dkimResults = result.dkim?.results ?? [];
    const passed = dkimResults.filter((r) => r.status?.result === 'pass');
    return {
      spf: result.spf === false ? 'none' : (result.spf.status?.result ?? 'none'),
      dkim: passed.length > 0 ? 'pass' : (dkimResults[0]?.status?.result ?? 'none'),
      dmarc: result.dmarc === false ? 'none' : (result.dmarc.status?.result ?? 'none'),
      spf_domain: result.spf === false ? null : (result.spf.domain ?? null),
      dkim_domains: passed.map((r) => r.signingDomain).filter((d): d is string => typeof d === 'string'),
      from_domain: result.dmarc === false ? null : (result.dmarc.domain ?? null),
    };
  }
}
