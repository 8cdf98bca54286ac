import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { isoTime } from '../clock.js';
import type { SignedLinkQuery } from '../http-schemas/common.js';
import { LinkExpiredError, LinkSignatureError } from './link-errors.js';

/** The spec fixes screenshot links at 7 days. */
export const LINK_VALIDITY_S = 7 * 24 * 3600;

/** Distinct from every other use of the master key, so a signature here is worth nothing elsewhere. */
const HKDF_INFO = 'errand artifact links v1';

/** The query of a signed link as `queryFor` makes it: a request's (`SignedLinkQuery`) may lack either member. */
export type SignedQuery = Required<SignedLinkQuery>;

export interface LinkSignerOptions {
  /** What the links are for: keys derived for different purposes sign nothing of each other's. */
  purpose?: string;
  /** How long `queryFor` makes a link valid; default `LINK_VALIDITY_S`. */
  validityS?: number;
}

/**
 * HMAC-SHA256 signatures of `<id>.<expires>` (unix seconds) under a key derived from the master key, so no new
 * secret is stored and rotating the master key invalidates every outstanding link. Artifact links by default;
 * hosted connect links with a purpose of their own.
 */
export class LinkSigner {
  private readonly key: Buffer;
  private readonly validityS: number;

  constructor(masterKey: Buffer, options: LinkSignerOptions = {}) {
    this.key = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), options.purpose ?? HKDF_INFO, 32));
    this.validityS = options.validityS ?? LINK_VALIDITY_S;
  }

  sign(artifactId: string, expiresUnix: number): string {
    return createHmac('sha256', this.key).update(`${artifactId}.${expiresUnix}`).digest('base64url');
  }

  /** The query of a link valid for its validity from `nowMs`, or only until `notAfterMs` when that is sooner. */
  queryFor(artifactId: string, nowMs: number, notAfterMs = Infinity): SignedQuery {
    const expires = Math.min(Math.floor(nowMs / 1000) + this.validityS, Math.floor(notAfterMs / 1000));
    return { expires, sig: this.sign(artifactId, expires) };
  }

  /**
   * Throws 403 unless the signature covers exactly this id and expiry, then 410 if the expiry has passed. The
   * signature is checked first, so moving the expiry forward is a forgery (403), not a stale link.
   */
  verify(artifactId: string, query: Partial<SignedQuery>, nowMs: number): void {
    if (query.expires === undefined || query.sig === undefined || !Number.isSafeInteger(query.expires)) throw new LinkSignatureError();
    const expected = Buffer.from(this.sign(artifactId, query.expires));
    const given = Buffer.from(query.sig);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new LinkSignatureError();
    if (query.expires * 1000 <= nowMs) throw new LinkExpiredError(isoTime(query.expires * 1000));
  }
}
