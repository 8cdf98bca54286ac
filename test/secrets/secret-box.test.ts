import { createCipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { masterKeyId, staticKeyring } from '../../src/secrets/master-key.js';
import { SecretBox } from '../../src/secrets/secret-box.js';

/** A value as the first version of SecretBox sealed it, before master keys had ids: `v1.<base64 iv|tag|ct>`. */
function legacySeal(key: Buffer, plaintext: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
}

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32));

  it('opens what it sealed, and never shows the plaintext in the sealed form', () => {
    const sealed = box.seal('whsec_very-secret', 'org_1');
    expect(sealed).toMatch(/^v2\.[0-9a-f]{16}\.[A-Za-z0-9+/]+=*$/);
    expect(sealed).not.toContain('very-secret');
    expect(Buffer.from(sealed.split('.')[2]!, 'base64').toString('latin1')).not.toContain('very-secret');
    expect(box.open(sealed, 'org_1')).toBe('whsec_very-secret');
  });

  it('names the master key a value is sealed under, and opens it with that key among several', () => {
    const [oldKey, newKey] = [randomBytes(32), randomBytes(32)];
    const sealedOld = new SecretBox(oldKey).seal('under the old key', 'ctx');
    expect(new SecretBox(oldKey).keyIdOf(sealedOld)).toBe(masterKeyId(oldKey));
    const both = new SecretBox(staticKeyring(newKey, [oldKey]));
    expect(both.currentKeyId()).toBe(masterKeyId(newKey));
    expect(both.open(sealedOld, 'ctx')).toBe('under the old key');
    expect(both.keyIdOf(both.seal('x'))).toBe(masterKeyId(newKey));
    expect(() => new SecretBox(newKey).open(sealedOld, 'ctx')).toThrow(/does not hold/);
  });

  it('opens values sealed before keys had ids, under whichever key of the keyring sealed them', () => {
    const [oldKey, newKey] = [randomBytes(32), randomBytes(32)];
    const legacy = legacySeal(oldKey, 'from before', 'org_1');
    const both = new SecretBox(staticKeyring(newKey, [oldKey]));
    expect(both.keyIdOf(legacy)).toBeNull();
    expect(both.open(legacy, 'org_1')).toBe('from before');
    expect(() => new SecretBox(newKey).open(legacy, 'org_1')).toThrow(/does not open/);
  });

  it('seals the same value differently each time', () => {
    expect(box.seal('x')).not.toBe(box.seal('x'));
  });

  it('refuses another key, another context, and altered ciphertext', () => {
    const sealed = box.seal('secret', 'org_1');
    expect(() => new SecretBox(randomBytes(32)).open(sealed, 'org_1')).toThrow(/does not hold/);
    expect(() => box.open(sealed, 'org_2')).toThrow(/does not open/);
    const [version, id, data] = sealed.split('.');
    const raw = Buffer.from(data!, 'base64');
    raw[raw.length - 1]! ^= 1;
    expect(() => box.open(`${version}.${id}.${raw.toString('base64')}`, 'org_1')).toThrow(/does not open/);
    expect(() => box.open('plain text', 'org_1')).toThrow(/not a sealed secret/);
  });

  it('needs a 32-byte key', () => {
    expect(() => new SecretBox(randomBytes(16))).toThrow(/32 bytes/);
  });
});
