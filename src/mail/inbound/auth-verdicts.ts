import { authenticate } from 'mailauth';
import { sameMailbox } from '../addresses.js';
import type { MailResolver } from '../dns-resolver.js';
import { aligns, domainOfAddress } from './alignment.js';

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
  /**
   * A passing DKIM signature's domain aligns with the domain of the From address (DMARC's rule, alignment.ts), so
   * that domain vouches for the From. False for a message with more or other From addresses than the one recorded.
   */
  dkim_aligned: boolean;
  /** SPF passed for a MAIL FROM domain that aligns with the domain of the From address, by the same rule. */
  spf_aligned: boolean;
}

/** A received message's stored verdicts; those stored before alignment was judged count as not aligned. */
export function storedVerdicts(json: string): AuthVerdicts {
  return { dkim_aligned: false, spf_aligned: false, ...(JSON.parse(json) as Partial<AuthVerdicts>) } as AuthVerdicts;
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
 * `dns.servers`. They are reported, and enforced only where an answer depends on who sent it: a reply that answers a
 * person's question (human/human-requests.ts) must come from the address asked, with `dkim_aligned` or
 * `spf_aligned`. ARC and BIMI are not evaluated.
 */
export class AuthChecker {
  constructor(
    private readonly resolver: MailResolver,
    /** Our host name in Authentication-Results terms (`mail.mx_host`). */
    private readonly mta: string,
  ) {}

  /** `from`: the From address the message is recorded as coming from, which the alignment is judged against. */
  async check(raw: Buffer, client: SmtpClient, from: string): Promise<AuthVerdicts> {
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
    const spf = result.spf === false ? 'none' : (result.spf.status?.result ?? 'none');
    const spfDomain = result.spf === false ? null : (result.spf.domain ?? null);
    const dkimDomains = passed.map((r) => r.signingDomain).filter((d): d is string => typeof d === 'string');
    // mailauth reads the From header itself: its alignment counts only when it read exactly the address recorded,
    // so that no second From header, nor a From two parsers read differently, borrows another domain's pass.
    const headerFrom = result.dkim?.headerFrom ?? [];
    const fromDomain = headerFrom.length === 1 && sameMailbox(headerFrom[0]!, from) ? domainOfAddress(from) : '';
    // mailauth judges alignment only for a From domain that publishes a DMARC record, and (4.12) takes a record's
    // strict mode for relaxed: alignment.ts judges it, in the mode the record names (relaxed without one).
    const mode = result.dmarc === false ? undefined : result.dmarc.alignment;
    return {
      spf,
      dkim: passed.length > 0 ? 'pass' : (dkimResults[0]?.status?.result ?? 'none'),
      dmarc: result.dmarc === false ? 'none' : (result.dmarc.status?.result ?? 'none'),
      spf_domain: spfDomain,
      dkim_domains: dkimDomains,
      from_domain: result.dmarc === false ? null : (result.dmarc.domain ?? null),
      dkim_aligned: fromDomain !== '' && dkimDomains.some((d) => aligns(fromDomain, d, mode?.dkim?.strict === true)),
      spf_aligned: fromDomain !== '' && spf === 'pass' && spfDomain !== null && aligns(fromDomain, spfDomain, mode?.spf?.strict === true),
    };
  }
}
