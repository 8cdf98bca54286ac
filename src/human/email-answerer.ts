import { sameMailbox } from '../mail/addresses.js';
import type { AuthVerdicts } from '../mail/inbound/auth-verdicts.js';

/**
 * Whether a reply to a request's notification email may answer it, and as whom:
 * - `accepted`: it came from the address the question went to (the run's `human_email`), authenticated by DMARC's
 *   rule (a passing DKIM signature, or an SPF pass, of a domain aligned with the From address), or unauthenticated
 *   on an installation that trusts such mail (`human.trust_unauthenticated_email`), which `by` then says;
 * - `refused`: from another address, or not authenticated. Nothing is sent back: the sender learns nothing of why.
 */
export type EmailAnswerer = { kind: 'accepted'; by: string } | { kind: 'refused'; reason: 'wrong_address' | 'not_authenticated' };

export function emailAnswerer(asked: string, from: string, auth: AuthVerdicts, trustUnauthenticated: boolean): EmailAnswerer {
  if (!sameMailbox(asked, from)) return { kind: 'refused', reason: 'wrong_address' };
  if (auth.dkim_aligned || auth.spf_aligned) return { kind: 'accepted', by: `email ${from}` };
  return trustUnauthenticated ? { kind: 'accepted', by: `email ${from} (unauthenticated)` } : { kind: 'refused', reason: 'not_authenticated' };
}
