import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LinkExpiredError, LinkSignatureError } from '../../src/artifacts/link-errors.js';
import { LINK_VALIDITY_S, LinkSigner } from '../../src/artifacts/link-signer.js';

const key = randomBytes(32);
const signer = new LinkSigner(key);
const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

describe('LinkSigner', () => {
  it('makes links valid for 7 days that verify until then', () => {
    const q = signer.queryFor('art_1', NOW);
    expect(q.expires).toBe(NOW / 1000 + LINK_VALIDITY_S);
    expect(() => signer.verify('art_1', q, NOW)).not.toThrow();
    expect(() => signer.verify('art_1', q, NOW + LINK_VALIDITY_S * 1000 - 1)).not.toThrow();
  });

  it('answers 410 once the expiry has passed', () => {
    const q = signer.queryFor('art_1', NOW);
    const err = catchError(() => signer.verify('art_1', q, NOW + LINK_VALIDITY_S * 1000));
    expect(err).toBeInstanceOf(LinkExpiredError);
    expect(err).toMatchObject({ status: 410, code: 'link_expired' });
  });

  it('answers 403, not 410, when the expiry was moved, even into the past', () => {
    const q = signer.queryFor('art_1', NOW);
    for (const expires of [q.expires + 1, q.expires - LINK_VALIDITY_S - 10]) {
      expect(catchError(() => signer.verify('art_1', { ...q, expires }, NOW))).toBeInstanceOf(LinkSignatureError);
    }
  });

  it('refuses any other id, a missing part, and a signature under another master key', () => {
    const q = signer.queryFor('art_1', NOW);
    expect(catchError(() => signer.verify('art_2', q, NOW))).toMatchObject({ status: 403, code: 'invalid_link_signature' });
    expect(catchError(() => signer.verify('art_1', { expires: q.expires }, NOW))).toBeInstanceOf(LinkSignatureError);
    expect(catchError(() => signer.verify('art_1', { sig: q.sig }, NOW))).toBeInstanceOf(LinkSignatureError);
    const other = new LinkSigner(randomBytes(32));
    expect(catchError(() => other.verify('art_1', q, NOW))).toBeInstanceOf(LinkSignatureError);
  });

  it('refuses every altered signature', () => {
    const q = signer.queryFor('art_1', NOW);
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 64 }), (sig) => {
        fc.pre(sig !== q.sig);
        expect(catchError(() => signer.verify('art_1', { ...q, sig }, NOW))).toBeInstanceOf(LinkSignatureError);
      }),
    );
  });
});

function catchError(fn: () => void): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected an error');
}
