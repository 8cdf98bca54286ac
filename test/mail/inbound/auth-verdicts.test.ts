/**
 * The alignment in a received message's verdicts (DMARC's rule, RFC 7489 3.1): a passing DKIM signature or an SPF pass
 * counts for the From address only when its domain aligns with the From domain, relaxed (the same organisational
 * domain) unless the From domain's DMARC record asks for strict. Messages are signed by nodemailer's DKIM signer and
 * checked by mailauth against a loopback DNS server.
 */
import { generateKeyPairSync } from 'node:crypto';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MailResolver } from '../../../src/mail/dns-resolver.js';
import { AuthChecker, type SmtpClient } from '../../../src/mail/inbound/auth-verdicts.js';
import { HostResolver } from '../../../src/network/host-resolver.js';
import { LoopbackDns } from '../../fixtures/dns-server.js';

let dns: LoopbackDns;
let checker: AuthChecker;
const keys = new Map<string, string>();

beforeAll(async () => {
  dns = await LoopbackDns.start();
  for (const domain of ['example.test', 'mail.example.test', 'other.test', 'strict.test']) {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
    keys.set(domain, privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
    dns.set(`s1._domainkey.${domain}`, 'TXT', [`v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`]);
    dns.set(domain, 'TXT', ['v=spf1 ip4:127.0.0.1 -all']);
  }
  dns.set('_dmarc.strict.test', 'TXT', ['v=DMARC1; p=reject; adkim=s; aspf=s']);
  dns.set('sub.strict.test', 'TXT', ['v=spf1 ip4:127.0.0.1 -all']);
  checker = new AuthChecker(new MailResolver(new HostResolver([dns.server])), 'mx.relay.test');
});

afterAll(async () => {
  await dns?.close();
});

/** A message as nodemailer builds it, DKIM-signed by `signer` when given. */
async function message(headers: { from: string }, signer?: string): Promise<Buffer> {
  const transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    ...(signer === undefined ? {} : { dkim: { domainName: signer, keySelector: 's1', privateKey: keys.get(signer)! } }),
  });
  const built = await transport.sendMail({
    from: headers.from,
    to: 'reply+abc@relay.test',
    subject: 'Re: a question',
    text: 'yes',
  });
  return built.message as Buffer;
}

const client = (sender: string): SmtpClient => ({ ip: '127.0.0.1', helo: 'client.example.test', sender });

describe('AuthChecker: alignment of the verdicts', () => {
  it('aligns a DKIM signature of the From domain, and of its organisational domain (relaxed)', async () => {
    const own = await checker.check(await message({ from: 'ada@example.test' }, 'example.test'), client(''), 'ada@example.test');
    expect(own).toMatchObject({ dkim: 'pass', dkim_domains: ['example.test'], dkim_aligned: true });
    const parent = await checker.check(await message({ from: 'ada@mail.example.test' }, 'example.test'), client(''), 'ada@mail.example.test');
    expect(parent).toMatchObject({ dkim: 'pass', dkim_aligned: true });
  });

  it('does not align a passing DKIM signature of another domain', async () => {
    const verdicts = await checker.check(await message({ from: 'ada@example.test' }, 'other.test'), client(''), 'ada@example.test');
    expect(verdicts).toMatchObject({ dkim: 'pass', dkim_domains: ['other.test'], dkim_aligned: false, spf_aligned: false });
  });

  it('asks for the very domain when the From domain\'s DMARC record says adkim=s and aspf=s', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
    keys.set('sub.strict.test', privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
    dns.set('s1._domainkey.sub.strict.test', 'TXT', [`v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`]);
    const verdicts = await checker.check(await message({ from: 'ada@strict.test' }, 'sub.strict.test'), client('bounce@sub.strict.test'), 'ada@strict.test');
    expect(verdicts).toMatchObject({ dkim: 'pass', spf: 'pass', dkim_aligned: false, spf_aligned: false });
    const same = await checker.check(await message({ from: 'ada@strict.test' }, 'strict.test'), client('ada@strict.test'), 'ada@strict.test');
    expect(same).toMatchObject({ dkim: 'pass', spf: 'pass', dkim_aligned: true, spf_aligned: true });
  });

  it('aligns an SPF pass for a MAIL FROM of the From\'s organisational domain, not of another', async () => {
    const raw = await message({ from: 'ada@example.test' });
    expect(await checker.check(raw, client('bounces@mail.example.test'), 'ada@example.test')).toMatchObject({ spf: 'pass', dkim: 'none', spf_aligned: true, dkim_aligned: false });
    expect(await checker.check(raw, client('bounces@other.test'), 'ada@example.test')).toMatchObject({ spf: 'pass', spf_domain: 'other.test', spf_aligned: false });
  });

  it('aligns nothing for a message with two From addresses, or a From other than the one recorded', async () => {
    // A From header above the signed one: DKIM still passes, since it signs the lowest instance of a header.
    const twice = Buffer.concat([Buffer.from('From: mallory@other.test\r\n'), await message({ from: 'ada@example.test' }, 'example.test')]);
    expect(await checker.check(twice, client('ada@example.test'), 'ada@example.test')).toMatchObject({ dkim: 'pass', spf: 'pass', dkim_aligned: false, spf_aligned: false });
    const signed = await message({ from: 'ada@example.test' }, 'example.test');
    expect(await checker.check(signed, client('ada@example.test'), 'boss@example.test')).toMatchObject({ dkim: 'pass', dkim_aligned: false, spf_aligned: false });
  });
});
