import { describe, expect, it } from 'vitest';
import type { TotpSeed } from '../../src/sandbox/protocol.js';
import { parseBrowserAction } from '../../templates/sandbox/supervisor/request-validation.js';
import { TOTP_ROLLOVER_MARGIN_MS, totpCode, typingTime } from '../../templates/sandbox/supervisor/totp-code.js';
import { fillTotpReferences, totpReferenceNames } from '../../templates/sandbox/supervisor/totp-references.js';
import { TypedCodes } from '../../templates/sandbox/supervisor/typed-codes.js';

/** RFC 4648 base32 of bytes, written out here so that the test does not lean on the library under test. */
function base32(text: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const bits = [...Buffer.from(text, 'ascii')].map((b) => b.toString(2).padStart(8, '0')).join('');
  return (bits.match(/.{1,5}/g) ?? []).map((chunk) => alphabet[parseInt(chunk.padEnd(5, '0'), 2)]).join('');
}

/** RFC 6238, appendix B: the seeds are the ASCII digits repeated to the hash's key size. */
const SEEDS = {
  SHA1: base32('12345678901234567890'),
  SHA256: base32('12345678901234567890123456789012'),
  SHA512: base32('1234567890123456789012345678901234567890123456789012345678901234'),
} as const;

/** RFC 6238, appendix B: time in seconds, and the 8-digit codes for SHA1, SHA256 and SHA512. */
const VECTORS: [number, string, string, string][] = [
  [59, '94287082', '46119246', '90693936'],
  [1111111109, '07081804', '68084774', '25091201'],
  [1111111111, '14050471', '67062674', '99943326'],
  [1234567890, '89005924', '91819424', '93441116'],
  [2000000000, '69279037', '90698825', '38618901'],
  [20000000000, '65353130', '77737706', '47863826'],
];

const seed = (algorithm: TotpSeed['algorithm'], overrides: Partial<TotpSeed> = {}): TotpSeed => ({ secret: SEEDS[algorithm], digits: 8, period: 30, algorithm, ...overrides });

describe('totpCode', () => {
  it.each(VECTORS)('gives the RFC 6238 test vectors at T=%i s', (seconds, sha1, sha256, sha512) => {
    expect(totpCode(seed('SHA1'), seconds * 1000)).toBe(sha1);
    expect(totpCode(seed('SHA256'), seconds * 1000)).toBe(sha256);
    expect(totpCode(seed('SHA512'), seconds * 1000)).toBe(sha512);
  });

  it('keeps the last digits for 6-digit codes, leading zeros included', () => {
    expect(totpCode(seed('SHA1', { digits: 6 }), 59_000)).toBe('287082');
    expect(totpCode(seed('SHA1', { digits: 6 }), 1111111109_000)).toBe('081804');
  });

  it('counts periods of the seed length: a 60 s period gives the 30 s code of half the time', () => {
    expect(totpCode(seed('SHA1', { period: 60 }), 118_000)).toBe(totpCode(seed('SHA1'), 59_000));
  });
});

describe('typingTime', () => {
  const s30 = seed('SHA1');
  it('types at once while more than the margin of the period is left', () => {
    expect(TOTP_ROLLOVER_MARGIN_MS).toBe(3_000);
    expect(typingTime([s30], 60_000)).toBe(60_000);
    expect(typingTime([s30], 86_999)).toBe(86_999);
  });

  it('waits for the next period when the code is in its last 3 s', () => {
    expect(typingTime([s30], 87_001)).toBe(90_000);
    expect(typingTime([s30], 89_999)).toBe(90_000);
  });

  it('finds a moment that suits seeds of different periods together', () => {
    // At 118.5 s the 60 s seed is late (1.5 s left); at 120 s both have a whole period ahead.
    expect(typingTime([s30, seed('SHA1', { period: 60 })], 118_500)).toBe(120_000);
    // At 88 s the 30 s seed is late; at 90 s the 45 s seed is fresh too.
    expect(typingTime([s30, seed('SHA1', { period: 45 })], 88_000)).toBe(90_000);
  });
});

describe('totp references', () => {
  it('names each connection referred to once, and puts each code in its place', () => {
    expect(totpReferenceNames('{{totp:bank}}-{{ totp:bank }} {{totp:mail}} {{secret:pw}}')).toEqual(['bank', 'mail']);
    expect(fillTotpReferences('{{totp:bank}} and {{ totp:mail }}', { bank: '123456', mail: '87654321' })).toBe('123456 and 87654321');
  });

  it('refuses a reference that came without a seed rather than typing the placeholder', () => {
    expect(() => fillTotpReferences('{{totp:nope}}', {})).toThrow(/\{\{totp:nope\}\}/);
  });
});

describe('TypedCodes', () => {
  it('masks a typed code where it stands alone, not inside a longer number', () => {
    const codes = new TypedCodes();
    codes.add('123456', 'bank');
    expect(codes.text('code=123456&t=1712345678 "value":"123456" 9123456')).toBe('code=[totp:bank]&t=1712345678 "value":"[totp:bank]" 9123456');
  });

  it('masks the longer of two codes that share digits whole', () => {
    const codes = new TypedCodes();
    codes.add('123456', 'short');
    codes.add('12345678', 'long');
    expect(codes.text('12345678 123456')).toBe('[totp:long] [totp:short]');
  });

  it('masks bytes of any file and leaves the rest byte for byte', () => {
    const codes = new TypedCodes();
    codes.add('654321', 'bank');
    const body = Buffer.concat([Buffer.from([0xff, 0x00, 0xe9]), Buffer.from(' 654321 ')]);
    expect(codes.bytes(body)).toEqual(Buffer.concat([Buffer.from([0xff, 0x00, 0xe9]), Buffer.from(' [totp:bank] ')]));
    expect(new TypedCodes().bytes(body)).toBe(body);
  });
});

describe('parseBrowserAction with totp', () => {
  const good = { secret: SEEDS.SHA1, digits: 6, period: 30, algorithm: 'SHA1' };

  it('takes seeds with a type action only', () => {
    expect(parseBrowserAction({ action: 'type', selector: '#code', text: '{{totp:bank}}', totp: { bank: good } })).toEqual({ action: 'type', selector: '#code', text: '{{totp:bank}}', totp: { bank: good } });
    expect(() => parseBrowserAction({ action: 'click', selector: 'a', totp: { bank: good } })).toThrow(/only with a type/);
  });

  it.each([
    [{ ...good, secret: 'not base32!' }, /secret must be base32/],
    [{ ...good, algorithm: 'MD5' }, /algorithm must be one of SHA1, SHA256, SHA512/],
    [{ ...good, digits: 9 }, /digits must be an integer from 6 to 8/],
    [{ ...good, period: 0 }, /period must be an integer/],
  ])('refuses a malformed seed (%j)', (bad, message) => {
    expect(() => parseBrowserAction({ action: 'type', selector: '#code', text: '{{totp:bank}}', totp: { bank: bad } })).toThrow(message);
  });
});
