import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretBox } from '../../src/secrets/secret-box.js';

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32));

  it('opens what it sealed, and never shows the plaintext in the sealed form', () => {
    const sealed = box.seal('whsec_very-secret', 'org_1');
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9+/]+=*$/);
    expect(sealed).not.toContain('very-secret');
    expect(Buffer.from(sealed.slice(3), 'base64').toString('latin1')).not.toContain('very-secret');
    expect(box.open(sealed, 'org_1')).toBe('whsec_very-secret');
  });

  it('seals the same value differently each time', () => {
    expect(box.seal('x')).not.toBe(box.seal('x'));
  });

  it('refuses another key, another context, and altered ciphertext', () => {
    const sealed = box.seal('secret', 'org_1');
    expect(() => new SecretBox(randomBytes(32)).open(sealed, 'org_1')).toThrow(/does not open/);
    expect(() => box.open(sealed, 'org_2')).toThrow(/does not open/);
    const raw = Buffer.from(sealed.slice(3), 'base64');
    raw[raw.length - 1]! ^= 1;
    expect(() => box.open(`v1.${raw.toString('base64')}`, 'org_1')).toThrow(/does not open/);
    expect(() => box.open('plain text', 'org_1')).toThrow(/not a sealed secret/);
  });

  it('needs a 32-byte key', () => {
    expect(() => new SecretBox(randomBytes(16))).toThrow(/32 bytes/);
  });
});
