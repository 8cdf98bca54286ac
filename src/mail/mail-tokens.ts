import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/** Distinct from every other use of the master key (artifact links, sealed secrets). */
const HKDF_INFO = 'errand mail tokens v1';
const DIGITS = '0123456789abcdefghjkmnpqrstvwxyz';
const NONCE_BYTES = 8;
const MAC_BYTES = 10;
const RUN_TOKEN_BYTES = 15;

/**
 * The tokens in the installation's addresses. A correlation token (`<username>+<token>@...`) is a random nonce
 * and an HMAC of it under a key derived from the master key: the inbound server refuses a forged one before it
 * reads the database, and a genuine one is looked up to find its message. A run's token is an HMAC of the run id,
 * so every attempt of a run has the same address and nobody can derive one without the key.
 */
export class MailTokens {
  private readonly key: Buffer;

  constructor(masterKey: Buffer) {
    this.key = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), HKDF_INFO, 32));
  }

  /** A fresh correlation token: 29 characters of lower-case base32. */
  correlationToken(): string {
    const nonce = base32(randomBytes(NONCE_BYTES));
    return nonce + this.mac(`reply:${nonce}`);
  }

  /** Whether `token` was minted by `correlationToken` under this key (case-insensitive, as local parts are). */
  isCorrelationToken(token: string): boolean {
    const lower = token.toLowerCase();
    const nonceLength = base32Length(NONCE_BYTES);
    if (lower.length !== nonceLength + base32Length(MAC_BYTES) || !/^[0-9a-z]+$/.test(lower)) return false;
    const expected = Buffer.from(this.mac(`reply:${lower.slice(0, nonceLength)}`));
    const given = Buffer.from(lower.slice(nonceLength));
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** The token of a run's mailbox: the same for every attempt of the run. */
  runToken(runId: string): string {
    return base32(createHmac('sha256', this.key).update(`run:${runId}`).digest().subarray(0, RUN_TOKEN_BYTES));
  }

  private mac(text: string): string {
    return base32(createHmac('sha256', this.key).update(text).digest().subarray(0, MAC_BYTES));
  }
}

function base32Length(bytes: number): number {
  return Math.ceil((bytes * 8) / 5);
}

/** Crockford's alphabet in lower case, as ids use it; no padding. */
function base32(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += DIGITS[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  if (bits > 0) out += DIGITS[(value << (5 - bits)) & 31];
  return out;
}
