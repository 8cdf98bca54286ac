/**
 * Standard Webhooks verification (https://www.standardwebhooks.com), with node:crypto rather than a package: the
 * scheme is one HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<body>` under the base64 secret after `whsec_`,
 * compared in constant time against each `v1,<base64>` of `webhook-signature` (two during a secret's rotation).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { WebhookSecretError, WebhookVerificationError } from './errors.js';
import type { WebhookEvent } from './types.js';

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** How far the timestamp may be from now, in seconds, either way. Default 300 (the standard's five minutes). */
  toleranceSeconds?: number;
  /** Now, for tests. */
  now?: Date;
}

export class Webhooks {
  /**
   * Checks a delivery's signature and timestamp and answers its body, typed by `event`. `body` must be the raw body
   * as received (a string or the bytes), not a re-serialised object. Throws WebhookVerificationError, and
   * WebhookSecretError (one of them) before anything else when `secret` is not a `whsec_<base64>` signing secret.
   */
  verify(body: string | Uint8Array, headers: WebhookHeaders, secret: string, options: VerifyOptions = {}): WebhookEvent {
    const key = secretKey(secret);
    const id = header(headers, 'webhook-id');
    const timestamp = header(headers, 'webhook-timestamp');
    const signatures = header(headers, 'webhook-signature');
    if (!id || !timestamp || !signatures) throw new WebhookVerificationError('missing_headers', 'webhook-id, webhook-timestamp and webhook-signature are required');
    if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError('invalid_timestamp', 'webhook-timestamp is not a whole number of seconds');
    const tolerance = options.toleranceSeconds ?? 300;
    const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
    const at = Number(timestamp);
    if (at < now - tolerance) throw new WebhookVerificationError('timestamp_too_old', `webhook-timestamp is more than ${tolerance} s old`);
    if (at > now + tolerance) throw new WebhookVerificationError('timestamp_too_new', `webhook-timestamp is more than ${tolerance} s in the future`);

    const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
    const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${text}`).digest();
    const matched = signatures.split(' ').some((candidate) => {
      const [version, value] = candidate.split(',', 2);
      if (version !== 'v1' || !value) return false;
      const given = Buffer.from(value, 'base64');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
    if (!matched) throw new WebhookVerificationError('invalid_signature', 'no signature in webhook-signature matches the secret');
    try {
      return JSON.parse(text) as WebhookEvent;
    } catch {
      throw new WebhookVerificationError('invalid_body', 'the signed body is not JSON');
    }
  }
}

const SECRET_PREFIX = 'whsec_';
/** The Standard Webhooks specification's shortest secret; the daemon's are 32 bytes. */
const MIN_SECRET_BYTES = 24;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The key of a `whsec_<base64>` secret, refused when it is anything else: Buffer.from(..., 'base64') skips what is
 * not base64, so an unset variable, a password or another credential would otherwise become a key someone can guess.
 * The error says what is wrong and never repeats the secret.
 */
function secretKey(secret: string): Buffer {
  const refuse = (problem: string) =>
    new WebhookSecretError(`the webhook secret ${problem}: a signing secret is whsec_ followed by base64 of at least ${MIN_SECRET_BYTES} bytes, as \`errand webhooks secret\` prints it`);
  if (typeof secret !== 'string' || secret === '') throw refuse('is missing or empty (an unset environment variable?)');
  if (!secret.startsWith(SECRET_PREFIX)) throw refuse(`does not start with ${SECRET_PREFIX}`);
  const encoded = secret.slice(SECRET_PREFIX.length);
  if (encoded === '') throw refuse(`is empty after ${SECRET_PREFIX}`);
  if (!BASE64.test(encoded)) throw refuse(`is not base64 after ${SECRET_PREFIX} (only A-Z, a-z, 0-9, + and /, padded with =)`);
  const key = Buffer.from(encoded, 'base64');
  if (key.length < MIN_SECRET_BYTES) throw refuse(`is ${key.length} bytes long`);
  return key;
}

function header(headers: WebhookHeaders, name: string): string | null {
  if (headers instanceof Headers) return headers.get(name);
  const found = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  return Array.isArray(found) ? (found[0] ?? null) : (found ?? null);
}
