import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * AES-256-GCM for secrets at rest. A sealed value is `v1.<base64 iv|tag|ciphertext>`. The optional context
 * (e.g. the owning organisation's id) is bound as associated data, so a ciphertext copied onto another row
 * does not open there.
 */
export class SecretBox {
  private loaded: Buffer | null = null;

  /** `masterKey` may be a loader, called on first use, so that work touching no secret never reads the key. */
  constructor(private readonly masterKey: Buffer | (() => Buffer)) {
    if (typeof masterKey !== 'function') this.loaded = checked(masterKey);
  }

  private get key(): Buffer {
    this.loaded ??= checked((this.masterKey as () => Buffer)());
    return this.loaded;
  }

  seal(plaintext: string, context = ''): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
  }

  /** Throws when the value was not sealed under this key and context, or was altered. */
  open(sealed: string, context = ''): string {
    const [version, data] = sealed.split('.', 2);
    if (version !== VERSION || data === undefined) throw new Error('not a sealed secret');
    const raw = Buffer.from(data, 'base64');
    if (raw.length < IV_BYTES + TAG_BYTES) throw new Error('sealed secret is truncated');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new Error('sealed secret does not open under this master key (wrong key, wrong context, or tampered)');
    }
  }
}

function checked(key: Buffer): Buffer {
  if (key.length !== 32) throw new Error('the master key must be 32 bytes');
  return Buffer.from(key);
}
