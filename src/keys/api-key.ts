import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * An API key is `ek_<key id body>_<secret>`, a test-mode key `ek_test_<key id body>_<secret>` (issue 25): the prefix
 * lets people and secret scanners tell them apart; the key's organisation decides its mode. The id part finds the row; only a SHA-256 of the secret is stored,
 * and it is compared in constant time. The secret has 256 bits of entropy, so a fast hash is the right one
 * (a slow KDF would add latency to every request and no safety).
 */
const KEY_PATTERN = /^ek_(test_)?([0-9a-z]{26})_([A-Za-z0-9_-]{43})$/;

export interface MintedKey {
  keyId: string;
  secret: string;
  token: string;
  hash: Buffer;
}

export function mintKey(keyId: string, livemode = true): MintedKey {
  const secret = randomBytes(32).toString('base64url');
  return { keyId, secret, token: `ek_${livemode ? '' : 'test_'}${keyId.slice('key_'.length)}_${secret}`, hash: hashSecret(secret) };
}

export function parseKey(token: string): { keyId: string; secret: string; livemode: boolean } | null {
  const m = KEY_PATTERN.exec(token);
  return m ? { keyId: `key_${m[2]}`, secret: m[3]!, livemode: m[1] === undefined } : null;
}

export function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

export function secretMatches(secret: string, storedHash: Buffer): boolean {
  const h = hashSecret(secret);
  return h.length === storedHash.length && timingSafeEqual(h, storedHash);
}
