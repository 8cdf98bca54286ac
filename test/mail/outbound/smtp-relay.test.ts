/**
 * The outbound relay (issue 15, item 3): `mail.smtp_url` reaches any relay, over STARTTLS or TLS from the start,
 * logging in with the URL's credentials, which never show in a response or a log line; what the relay answers about
 * the message itself, rather than one recipient, never suppresses a recipient.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmtpSink } from '../../fixtures/smtp-sink.js';
import { tempDir } from '../../fixtures/temp-dir.js';
import type { TestDaemon } from '../../fixtures/test-daemon.js';
import { configureIdentity, send, startMailDaemon, waitForEmail } from '../harness.js';

const USER = 'mailer';
const PASSWORD = 'p@ss:w/rd 9%';

const certDir = tempDir('errand-relay-tls-');
let starttls: SmtpSink;
let implicit: SmtpSink;
let overStarttls: TestDaemon;
let overTls: TestDaemon;
let wrongPassword: TestDaemon;

beforeAll(async () => {
  const cert = join(certDir.path, 'cert.pem');
  const key = join(certDir.path, 'key.pem');
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', key, '-out', cert],
    { stdio: 'ignore' },
  );
  const tls = { key: readFileSync(key), cert: readFileSync(cert) };
  const users = { [USER]: PASSWORD };
  [starttls, implicit] = await Promise.all([SmtpSink.start({ tls, users }), SmtpSink.start({ tls: { ...tls, implicitTls: true }, users })]);
  // The daemons trust the relays' certificate the way an operator would trust a private CA.
  const trust = { NODE_EXTRA_CA_CERTS: cert };
  [overStarttls, overTls, wrongPassword] = await Promise.all([
    startMailDaemon({ env: { ...trust, ERRAND_MAIL_SMTP_URL: starttls.url({ user: USER, password: PASSWORD }) } }),
    startMailDaemon({ env: { ...trust, ERRAND_MAIL_SMTP_URL: implicit.url({ user: USER, password: PASSWORD }) } }),
    startMailDaemon({ env: { ...trust, ERRAND_MAIL_SMTP_URL: implicit.url({ user: USER, password: `${PASSWORD}-old` }) } }),
  ]);
  await Promise.all([overStarttls, overTls, wrongPassword].map((d) => configureIdentity(d, { username: 'shop' })));
});

afterAll(async () => {
  await Promise.all([overStarttls, overTls, wrongPassword].map((d) => d?.cleanup()));
  await Promise.all([starttls, implicit].map((s) => s?.close()));
  certDir.remove();
});

describe('the outbound relay', () => {
  it('is reached over STARTTLS (smtp://) and over TLS from the start (smtps://), logged in as the URL says', async () => {
    for (const [d, sink] of [[overStarttls, starttls], [overTls, implicit]] as const) {
      const sent = await send(d, { to: 'ann@example.test', subject: 'Over TLS', text: 'hi' });
      await waitForEmail(d, sent.message_id, (e) => e.recipients[0].status === 'delivered', 'delivery');
      expect(sink.to('ann@example.test').at(-1)).toMatchObject({ secure: true, user: USER });
    }
  });

  it('keeps a message whose login the relay refuses queued, suppresses nobody, and never shows the password', async () => {
    const sent = await send(wrongPassword, { to: 'bob@example.test', subject: 'Hello', text: 'hi' });
    const email = await waitForEmail(wrongPassword, sent.message_id, (e) => /535/.test(e.recipients[0].detail ?? ''), 'the refused login');
    expect(['deferred', 'failed']).toContain(email.recipients[0].status);
    expect(implicit.to('bob@example.test')).toHaveLength(0);
    expect((await wrongPassword.api('GET', '/v1/emails/suppressions')).body.data).toEqual([]);
    const shown = JSON.stringify(email) + wrongPassword.logs();
    expect(shown).not.toContain(PASSWORD);
    expect(shown).not.toContain(encodeURIComponent(PASSWORD));
  });

  it('fails a message the relay refuses at MAIL FROM for good, without blaming its recipients', async () => {
    starttls.mailFrom = () => ({ code: 550, message: '5.7.1 Sender not allowed' });
    try {
      const sent = await send(overStarttls, { to: ['carol@example.test', 'dan@example.test'], subject: 'Refused', text: 'hi' });
      const email = await waitForEmail(overStarttls, sent.message_id, (e) => e.recipients.every((r: any) => r.status !== 'queued'), 'the refusal');
      expect(email.recipients).toEqual([
        expect.objectContaining({ address: 'carol@example.test', status: 'failed', detail: expect.stringContaining('5.7.1') }),
        expect.objectContaining({ address: 'dan@example.test', status: 'failed', detail: expect.stringContaining('5.7.1') }),
      ]);
      expect((await overStarttls.api('GET', '/v1/emails/suppressions')).body.data).toEqual([]);
    } finally {
      starttls.mailFrom = () => null;
    }
  });
});
