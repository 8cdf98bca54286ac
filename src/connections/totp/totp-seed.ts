import { InvalidRequestError } from '../../errors.js';
import type { TotpAlgorithm, TotpSeed } from '../../sandbox/protocol.js';

/** What a seed given without a URI means: the defaults of authenticator apps and of the `otpauth://` format. */
const DEFAULTS = { digits: 6, period: 30, algorithm: 'SHA1' } as const;
const ALGORITHMS: readonly TotpAlgorithm[] = ['SHA1', 'SHA256', 'SHA512'];
export const TOTP_DIGITS = { min: 6, max: 8 } as const;
/** Seconds. Shorter periods leave too little time to type a code; longer ones are not in use. */
export const TOTP_PERIOD = { min: 15, max: 300 } as const;
/**
 * Bytes of key. 10 (80 bits, 16 base32 characters) is what many sites still hand out, though RFC 4226 asks for 16;
 * the upper bound keeps a pasted document from being taken for a seed.
 */
const KEY_BYTES = { min: 10, max: 128 } as const;
/** Base32 strings of these lengths (mod 8) decode to whole bytes; others are cut short. */
const WHOLE_BYTE_LENGTHS = new Set([0, 2, 4, 5, 7]);

/** A TOTP seed as stored, and the forms of it that must be masked wherever a run could show it. */
export interface ParsedTotpSeed {
  seed: TotpSeed;
  /** The stored text, and the seed's base32 as it may also be written (upper and lower case, as the URI had it). */
  forms: string[];
}

/**
 * Reads a TOTP connection's secret: a base32 seed (spaces and hyphens allowed, as apps group it; case and padding
 * ignored) or an `otpauth://totp/...` URI whose `secret`, `digits`, `period` and `algorithm` say the rest. Every
 * error says what is wrong without repeating the value, which is a credential.
 */
export function parseTotpSeed(text: string, param = 'secret'): ParsedTotpSeed {
  const fail = (message: string): never => {
    throw new InvalidRequestError('invalid_totp_seed', message, { param });
  };
  const trimmed = text.trim();
  if (!/^otpauth:/i.test(trimmed)) {
    const secret = base32Key(trimmed, fail);
    return { seed: { secret, ...DEFAULTS }, forms: unique([text, trimmed, secret, secret.toLowerCase()]) };
  }
  let uri: URL;
  try {
    uri = new URL(trimmed);
  } catch {
    return fail('the secret starts with otpauth: but is not a URI; give otpauth://totp/<label>?secret=<base32>, or the base32 seed alone');
  }
  if (uri.host.toLowerCase() !== 'totp') fail(`an otpauth URI for ${uri.host === '' ? 'no type' : uri.host} is not a TOTP seed: only otpauth://totp/ URIs are taken`);
  refuseRepeats(uri, fail);
  const raw = uri.searchParams.get('secret');
  if (raw === null || raw === '') return fail('the otpauth URI has no secret parameter');
  const secret = base32Key(raw, fail);
  const algorithm = (uri.searchParams.get('algorithm') ?? DEFAULTS.algorithm).toUpperCase();
  if (!ALGORITHMS.includes(algorithm as TotpAlgorithm)) fail(`the otpauth URI's algorithm ${JSON.stringify(algorithm.slice(0, 20))} is not supported: use SHA1, SHA256 or SHA512`);
  const digits = integerParam(uri, 'digits', DEFAULTS.digits, TOTP_DIGITS, fail);
  const period = integerParam(uri, 'period', DEFAULTS.period, TOTP_PERIOD, fail);
  return { seed: { secret, digits, period, algorithm: algorithm as TotpAlgorithm }, forms: unique([text, trimmed, raw, secret, secret.toLowerCase()]) };
}

/** The key in canonical base32 (upper case, no spaces or padding), once it is known to decode to a usable key. */
function base32Key(text: string, fail: (message: string) => never): string {
  const key = text.replace(/[\s-]/g, '').replace(/=+$/, '').toUpperCase();
  if (key === '') fail('the TOTP seed is empty');
  if (!/^[A-Z2-7]+$/.test(key)) fail('the TOTP seed is not base32: only the letters A-Z and the digits 2-7 may appear (spaces, hyphens and = padding are ignored)');
  if (!WHOLE_BYTE_LENGTHS.has(key.length % 8)) fail(`the TOTP seed is not base32: ${key.length} characters do not make whole bytes (was a character lost in copying?)`);
  const bytes = Math.floor((key.length * 5) / 8);
  if (bytes < KEY_BYTES.min) fail(`the TOTP seed is too short: ${bytes} bytes of key, at least ${KEY_BYTES.min} (16 base32 characters) are needed`);
  if (bytes > KEY_BYTES.max) fail(`the TOTP seed is too long: ${bytes} bytes of key, at most ${KEY_BYTES.max}`);
  return key;
}

/** The parameters of the otpauth format (Google Authenticator's Key-Uri-Format), the only names an error may repeat. */
const URI_PARAMETERS = new Set(['secret', 'issuer', 'algorithm', 'digits', 'period', 'counter', 'image']);

/**
 * A parameter given twice (`secret=A&secret=B`, in any case) is refused: apps disagree on which one counts, so the
 * codes the run types could differ from the ones the person's app shows. Another name is not repeated in the error,
 * since a mangled URI may hold the seed where a name should be.
 */
function refuseRepeats(uri: URL, fail: (message: string) => never): void {
  const seen = new Set<string>();
  for (const name of uri.searchParams.keys()) {
    const key = name.toLowerCase();
    if (seen.has(key)) fail(`the otpauth URI gives ${URI_PARAMETERS.has(key) ? `its ${key} parameter` : 'a parameter'} more than once: give each parameter once`);
    seen.add(key);
  }
}

function integerParam(uri: URL, name: string, fallback: number, range: { min: number; max: number }, fail: (message: string) => never): number {
  const raw = uri.searchParams.get(name);
  if (raw === null) return fallback;
  const value = /^\d{1,4}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= range.min && value <= range.max)) fail(`the otpauth URI's ${name} must be a whole number from ${range.min} to ${range.max}`);
  return value;
}

function unique(forms: string[]): string[] {
  return [...new Set(forms)].filter((form) => form !== '');
}
