import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { staticKeyring, type MasterKeyring } from './master-key.js';

/** Sealed before master keys had ids: `v1.<base64>`, under the installation's only key. */
const LEGACY_VERSION = 'v1';
const VERSION = 'v2';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * AES-256-GCM for secrets at rest. A sealed value is `v2.<key id>.<base64 iv|tag|ciphertext>`: the key id says
 * which master key opens it, so `errand secrets rotate-key` can find and re-encrypt whatever is not under the
 * current key. The optional context (the owning row's id or organisation) is bound as associated data, so a
 * ciphertext copied onto another row does not open there.
 */
export class SecretBox {
  private ring: MasterKeyring | null = null;

  /** `keys` may be a loader, called on first use, so that work touching no secret never reads the key. */
  constructor(private readonly keys: Buffer | MasterKeyring | (() => Buffer | MasterKeyring)) {
    if (typeof keys !== 'function') this.ring = asKeyring(keys);
  }

  private get keyring(): MasterKeyring {
    this.ring ??= asKeyring((this.keys as () => Buffer | MasterKeyring)());
    return this.ring;
  }

  /** The id of the key new values are sealed under. */
  currentKeyId(): string {
    return this.keyring.current().id;
  }

  seal(plaintext: string, context = ''): string {
    const { id, key } = this.keyring.current();
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `${VERSION}.${id}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
  }

  /** Throws when the value was not sealed under a key of this installation and this context, or was altered. */
  open(sealed: string, context = ''): string {
    const parts = sealed.split('.');
    if (parts[0] === VERSION && parts.length === 3) {
      const key = this.keyring.byId(parts[1]!);
      if (key === undefined) throw new Error(`sealed secret is under master key ${parts[1]}, which this installation does not hold`);
      return decrypt(key, parts[2]!, context);
    }
    if (parts[0] === LEGACY_VERSION && parts.length === 2) {
      for (const { key } of this.keyring.all()) {
        try {
          return decrypt(key, parts[1]!, context);
        } catch {
          // Not this key: the authentication tag says so, and the next key is tried.
        }
      }
      throw new Error('sealed secret does not open under any master key of this installation (wrong key, wrong context, or tampered)');
    }
    throw new Error('not a sealed secret');
  }

  /** The id of the master key a sealed value is under; null for values sealed before keys had ids. */
  keyIdOf(sealed: string): string | null {
    const parts = sealed.split('.');
    return parts[0] === VERSION && parts.length === 3 ? parts[1]! : null;
  }
}

function decrypt(key: Buffer, data: string, context: string): string {
  const raw = Buffer.from(data, 'base64');
  if (raw.length < IV_BYTES + TAG_BYTES) throw new Error('sealed secret is truncated');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    throw new Error('sealed secret does not open under this master key (wrong key, wrong context, or tampered)');
  }
}

function asKeyring(keys: Buffer | MasterKeyring): MasterKeyring {
  return Buffer.isBuffer(keys) ? staticKeyring(keys) : keys;
}
