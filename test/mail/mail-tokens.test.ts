import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MailTokens } from '../../src/mail/mail-tokens.js';

describe('correlation tokens', () => {
  const tokens = new MailTokens(randomBytes(32));

  it('are 29 characters of lower-case base32, different every time, and recognised in any case', () => {
    const a = tokens.correlationToken();
    const b = tokens.correlationToken();
    expect(a).toMatch(/^[0-9a-z]{29}$/);
    expect(a).not.toBe(b);
    expect(tokens.isCorrelationToken(a)).toBe(true);
    expect(tokens.isCorrelationToken(a.toUpperCase())).toBe(true);
  });

  it('cannot be forged: a changed character, a token of another key, or any other string is refused', () => {
    const token = tokens.correlationToken();
    const last = token.at(-1) === '0' ? '1' : '0';
    expect(tokens.isCorrelationToken(token.slice(0, -1) + last)).toBe(false);
    expect(tokens.isCorrelationToken(new MailTokens(randomBytes(32)).correlationToken())).toBe(false);
    for (const forged of ['', 'abc', 'x'.repeat(29), `${token}0`, token.slice(1), 'zzzzzzzzzzzzz!zzzzzzzzzzzzzzz']) expect(tokens.isCorrelationToken(forged)).toBe(false);
  });
});

describe('run tokens', () => {
  it('are the same for a run under one key, differ between runs and keys', () => {
    const key = randomBytes(32);
    expect(new MailTokens(key).runToken('run_a')).toBe(new MailTokens(key).runToken('run_a'));
    expect(new MailTokens(key).runToken('run_a')).not.toBe(new MailTokens(key).runToken('run_b'));
    expect(new MailTokens(key).runToken('run_a')).not.toBe(new MailTokens(randomBytes(32)).runToken('run_a'));
    expect(new MailTokens(key).runToken('run_a')).toMatch(/^[0-9a-z]{24}$/);
  });
});
