import { dkimSign } from 'mailauth';
import type { DkimKey } from '../mail-settings.js';

/**
 * Signs outgoing messages with the configured DKIM key (`mail.dkim_*`), as `d=` the domain of the From address:
 * the relay domain's signing domain (`mail.dkim_domain`), or an organisation's verified sending domain, which
 * publishes the same key (`errand email domain verify` prints the record). Without a key, messages go unsigned.
 */
export class DkimSigner {
  constructor(
    private readonly key: DkimKey | null,
    private readonly relayDomain: string | null,
  ) {}

  get enabled(): boolean {
    return this.key !== null;
  }

  /** The message with its DKIM-Signature header prepended, or as it was when there is no key. */
  async sign(mime: Buffer, fromDomain: string): Promise<Buffer> {
    if (this.key === null) return mime;
    const signingDomain = fromDomain === this.relayDomain ? this.key.domain : fromDomain;
    // mailauth reads the keys from `signatureData`, which its type declarations leave out.
    const options = {
      canonicalization: 'relaxed/relaxed',
      algorithm: this.key.algorithm,
      signatureData: [{ signingDomain, selector: this.key.selector, privateKey: this.key.privateKey }],
    };
    const result = await dkimSign(mime, options as unknown as Parameters<typeof dkimSign>[1]);
    const failure = result.errors?.[0];
    if (failure !== undefined || !result.signatures.startsWith('DKIM-Signature:')) throw new Error(`DKIM signing failed: ${JSON.stringify(failure ?? 'no signature')}`);
    return Buffer.concat([Buffer.from(result.signatures), mime]);
  }
}
