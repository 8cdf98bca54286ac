import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../../src/errors.js';
import { parseTotpSeed } from '../../../src/connections/totp/totp-seed.js';

const SEED = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

function refusal(text: string): InvalidRequestError {
  try {
    parseTotpSeed(text);
  } catch (error) {
    if (error instanceof InvalidRequestError) return error;
    throw error;
  }
  throw new Error(`${text} was taken`);
}

describe('parseTotpSeed', () => {
  it('takes a base32 seed in any case, grouped with spaces, padded or not, with the defaults of authenticator apps', () => {
    for (const text of [SEED, SEED.toLowerCase(), 'JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP', `${SEED.slice(0, 26)}======`]) {
      expect(parseTotpSeed(text).seed).toEqual({ secret: text.startsWith('JBSW Y') ? SEED : text.replace(/=+$/, '').toUpperCase(), digits: 6, period: 30, algorithm: 'SHA1' });
    }
  });

  it('reads digits, period and algorithm from an otpauth URI, ignoring its label and issuer', () => {
    const uri = `otpauth://totp/Bank:alice%40example.com?secret=${SEED.toLowerCase()}&issuer=Bank&algorithm=sha512&digits=8&period=60`;
    expect(parseTotpSeed(uri).seed).toEqual({ secret: SEED, digits: 8, period: 60, algorithm: 'SHA512' });
    expect(parseTotpSeed(`otpauth://totp/x?secret=${SEED}`).seed).toEqual({ secret: SEED, digits: 6, period: 30, algorithm: 'SHA1' });
  });

  it('answers every form the seed may be shown in, for masking: as given, and its base32 in both cases', () => {
    const uri = `otpauth://totp/x?secret=${SEED.toLowerCase()}&digits=8`;
    expect(parseTotpSeed(uri).forms).toEqual(expect.arrayContaining([uri, SEED, SEED.toLowerCase()]));
    expect(parseTotpSeed('jbsw y3dp ehpk 3pxp').forms).toEqual(expect.arrayContaining(['jbsw y3dp ehpk 3pxp', 'JBSWY3DPEHPK3PXP', 'jbswy3dpehpk3pxp']));
  });

  it.each([
    ['not base32', 'JBSWY3DPEHPK3PX1JBSW', /not base32: only the letters A-Z and the digits 2-7/],
    ['cut short', `${SEED.slice(0, 17)}`, /17 characters do not make whole bytes/],
    ['too short', 'JBSWY3DPEHPK3', /too short: 8 bytes of key, at least 10/],
    ['hotp', `otpauth://hotp/x?secret=${SEED}&counter=1`, /otpauth URI for hotp is not a TOTP seed/],
    ['without secret', 'otpauth://totp/x?digits=6', /no secret parameter/],
    ['an unsupported algorithm', `otpauth://totp/x?secret=${SEED}&algorithm=MD5`, /algorithm "MD5" is not supported: use SHA1, SHA256 or SHA512/],
    ['too many digits', `otpauth://totp/x?secret=${SEED}&digits=10`, /digits must be a whole number from 6 to 8/],
    ['too few digits', `otpauth://totp/x?secret=${SEED}&digits=4`, /digits must be a whole number from 6 to 8/],
    ['a period out of range', `otpauth://totp/x?secret=${SEED}&period=5`, /period must be a whole number from 15 to 300/],
    ['a period that is not a number', `otpauth://totp/x?secret=${SEED}&period=30s`, /period must be a whole number/],
    ['given twice in one URI', `otpauth://totp/x?secret=${SEED}&secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ`, /gives its secret parameter more than once: give each parameter once/],
    ['given twice in two cases', `otpauth://totp/x?Secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&secret=${SEED}`, /gives its secret parameter more than once/],
    ['with digits given twice', `otpauth://totp/x?secret=${SEED}&digits=6&digits=8`, /gives its digits parameter more than once/],
    ['with a seed where a name should be, twice', `otpauth://totp/x?secret=${SEED}&${SEED}&${SEED}`, /gives a parameter more than once/],
  ])('refuses a seed that is %s with invalid_totp_seed on secret, never repeating it', (_what, text, message) => {
    const error = refusal(text);
    expect(error).toMatchObject({ status: 400, code: 'invalid_totp_seed', param: 'secret' });
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain(SEED);
    expect(error.message).not.toContain(SEED.slice(0, 12));
  });
});
