import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { hashSecret } from '../../keys/api-key.js';

/**
 * The secrets the authorization server hands out, each with a prefix that says what it is (so that a leaked one
 * can be recognised, by a person or a secret scanner) and 256 random bits. Only their SHA-256 is stored: like API
 * keys, they are long enough that a fast hash is the right one.
 */
const PREFIXES = {
  /** An access token for `/mcp`. */
  access: 'ema_',
  /** A refresh token. */
  refresh: 'emr_',
  /** An authorization code. */
  code: 'emc_',
  /** The consent page's handle on a sign-in under way. */
  consent: 'emh_',
  /** A confidential client's secret. */
  client: 'ems_',
} as const;

export type SecretKind = keyof typeof PREFIXES;

export interface MintedSecret {
  value: string;
  hash: Buffer;
}

export function mintSecret(kind: SecretKind): MintedSecret {
  const value = `${PREFIXES[kind]}${randomBytes(32).toString('base64url')}`;
  return { value, hash: hashSecret(value) };
}

export { hashSecret };

/** Constant-time comparison of a presented secret with a stored hash. */
export function secretMatchesHash(value: string, hash: Buffer): boolean {
  const presented = hashSecret(value);
  return presented.length === hash.length && timingSafeEqual(presented, hash);
}

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** The S256 challenge of such a verifier: 32 bytes, base64url without padding. */
export const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** RFC 7636 §4.6 for the S256 method, the only one the server accepts. */
export function pkceMatches(verifier: string, challenge: string): boolean {
  if (!VERIFIER.test(verifier)) return false;
  const computed = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

/** Consonants only, none easily confused, as RFC 8628 §6.1 suggests for codes people type. */
const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
const USER_CODE_LENGTH = 8;

/**
 * The one-time code of a sign-in, for `errand mcp approve`: derived from the sign-in's handle, so that the consent
 * page can show it again without the code being stored (only its hash is, to look it up).
 */
export function userCodeOf(handle: string): string {
  const digest = createHash('sha256').update(`user-code:${handle}`).digest();
  let code = '';
  for (let i = 0; i < USER_CODE_LENGTH; i++) code += USER_CODE_ALPHABET[digest[i]! % USER_CODE_ALPHABET.length];
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** A typed code as it is hashed: upper case, and only the alphabet's letters (dashes and spaces dropped). */
export function normaliseUserCode(typed: string): string {
  const letters = typed.toUpperCase().replace(/[^A-Z]/g, '');
  return `${letters.slice(0, 4)}-${letters.slice(4)}`;
}
