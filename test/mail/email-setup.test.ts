/**
 * Setting email up as a new user does (issue 21, item 11): an installation without email says which settings to set
 * and that the daemon reads them at start, from the API and from `errand email identity --allocate`; GET /v1/status
 * and `errand doctor` say how the daemon does email and where it receives mail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, startApiDaemon } from '../api/harness.js';
import { runCli } from '../cli/run-cli.js';
import { SmtpSink } from '../fixtures/smtp-sink.js';
import { startDaemon, type TestDaemon } from '../fixtures/test-daemon.js';
import { configureIdentity, mailEnv, RELAY, smtpPortOf } from './harness.js';

let sink: SmtpSink;
/** No mail settings at all. */
let bare: TestDaemon;
/** A relay domain, but no relay to send through. */
let noRelay: TestDaemon;
/** A relay domain and a relay. */
let full: TestDaemon;

beforeAll(async () => {
  sink = await SmtpSink.start();
  [bare, noRelay, full] = await Promise.all([startApiDaemon(), startDaemon({ env: mailEnv({}) }), startDaemon({ env: mailEnv({ sink }) })]);
});

afterAll(async () => {
  await Promise.all([bare?.cleanup(), noRelay?.cleanup(), full?.cleanup()]);
  await sink?.close();
});

const cli = (d: TestDaemon, ...args: string[]) => runCli(['--home', d.home, ...args], { env: { ERRAND_API_URL: d.url, ERRAND_API_KEY: d.key, ERRAND_SANDBOX_DRIVER: 'local' } });

describe('email_not_configured', () => {
  it('names mail.relay_domain and mail.smtp_url and says the daemon must be restarted, on the API and in errand email identity --allocate', async () => {
    const res = await bare.api('POST', '/v1/emails/identity', {});
    expectError(res, 400, { type: 'invalid_request_error', code: 'email_not_configured' });
    expect(res.body.error.message).toMatch(/mail\.relay_domain/);
    expect(res.body.error.message).toMatch(/mail\.smtp_url/);
    expect(res.body.error.message).toMatch(/restarts the daemon/);
    const allocate = await cli(bare, 'email', 'identity', '--allocate');
    expect(allocate.code).toBe(1);
    expect(allocate.stderr).toContain(res.body.error.message);
  });

  it('names mail.smtp_url and the restart when the installation has addresses but no relay', async () => {
    await configureIdentity(noRelay);
    const res = await noRelay.api('POST', '/v1/emails', { to: 'a@example.test', subject: 'x', text: 'x' });
    expectError(res, 400, { type: 'invalid_request_error', code: 'email_not_configured' });
    expect(res.body.error.message).toMatch(/no outbound relay.*mail\.smtp_url.*mail\.transport=capture.*restarts the daemon/);
  });
});

describe('GET /v1/status', () => {
  it('says how the daemon does email: off, without a relay, or sending through the relay and receiving on its SMTP port', async () => {
    expect((await bare.api('GET', '/v1/status')).body.email).toEqual({
      relay_domain: null,
      sending: 'off',
      relay: null,
      receiving: null,
      mx_host: null,
      problem: 'mail.relay_domain is not set: email is off',
    });
    const port = await smtpPortOf(noRelay);
    expect((await noRelay.api('GET', '/v1/status')).body.email).toMatchObject({ relay_domain: RELAY, sending: 'off', receiving: `127.0.0.1:${port}`, problem: expect.stringMatching(/^mail\.smtp_url is not set/) });
    const fullPort = await smtpPortOf(full);
    const email = (await full.api('GET', '/v1/status')).body.email;
    expect(email).toEqual({ relay_domain: RELAY, sending: 'smtp', relay: new URL(sink.url()).host, receiving: `127.0.0.1:${fullPort}`, mx_host: RELAY, problem: null });
  });
});

describe('errand doctor', () => {
  it('reports where the daemon receives mail and what it sends through, and says email is off and how to turn it on', async () => {
    const fullPort = await smtpPortOf(full);
    const ok = await cli(full, 'doctor');
    expect(ok.stdout).toMatch(new RegExp(`^ok\\s+email\\s+sends through ${new URL(sink.url()).host.replace(/\./g, '\\.')}; receives mail for \\*@relay\\.test on 127\\.0\\.0\\.1:${fullPort} \\(SMTP; MX records name relay\\.test\\)$`, 'm'));
    const off = await cli(bare, 'doctor');
    expect(off.stdout).toMatch(/^ok\s+email\s+off \(set mail\.relay_domain and mail\.smtp_url, then restart the daemon/m);
    const warn = await cli(noRelay, 'doctor');
    expect(warn.stdout).toMatch(/^warn\s+email\s+mail\.smtp_url is not set .*; receives mail for \*@relay\.test on 127\.0\.0\.1:\d+/m);
  });
});
