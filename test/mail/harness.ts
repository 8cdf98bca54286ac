/**
 * What the mail suites share: a daemon with mail configured (relay domain `relay.test`, a loopback SMTP sink as its
 * relay, its inbound SMTP server on a free port), its DKIM key, and helpers for the identity and sends.
 */
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { withDataDirectory, type AdminServices } from '../../src/admin-services.js';
import { dataPaths } from '../../src/runtime/paths.js';
import { OFFLINE_ENGINE_ENV, withStore } from '../api/harness.js';
import type { SmtpSink } from '../fixtures/smtp-sink.js';
import { startDaemon, type TestDaemon } from '../fixtures/test-daemon.js';
import { tempDir } from '../fixtures/temp-dir.js';

export const RELAY = 'relay.test';
export const DKIM_SELECTOR = 'errand1';

export interface DkimKeyFile {
  path: string;
  publicRecord: string;
  remove(): void;
}

/** A fresh 2048-bit RSA key in a temp file, and its DKIM DNS record. */
export function dkimKeyFile(): DkimKeyFile {
  const dir = tempDir('errand-dkim-');
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const path = join(dir.path, 'dkim.pem');
  writeFileSync(path, privateKey.export({ type: 'pkcs8', format: 'pem' }));
  const p = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  return { path, publicRecord: `v=DKIM1; k=rsa; p=${p}`, remove: dir.remove };
}

export interface MailDaemonOptions {
  sink?: SmtpSink;
  dkim?: DkimKeyFile;
  env?: Record<string, string>;
}

export function mailEnv(o: MailDaemonOptions): Record<string, string> {
  return {
    ...OFFLINE_ENGINE_ENV,
    ERRAND_MAIL_RELAY_DOMAIN: RELAY,
    ERRAND_MAIL_INBOUND_PORT: '0',
    ERRAND_MAIL_RETRY_SCHEDULE_S: '1,1,1',
    ERRAND_MAIL_SMTP_TIMEOUT_S: '5',
    ...(o.sink ? { ERRAND_MAIL_SMTP_URL: o.sink.url() } : {}),
    ...(o.dkim ? { ERRAND_MAIL_DKIM_SELECTOR: DKIM_SELECTOR, ERRAND_MAIL_DKIM_PRIVATE_KEY_PATH: o.dkim.path } : {}),
    ...o.env,
  };
}

export function startMailDaemon(o: MailDaemonOptions = {}): Promise<TestDaemon> {
  return startDaemon({ env: mailEnv(o) });
}

/** Allocates (or changes) the identity of the daemon's first organisation; answers it with its webhook_secret. */
export async function configureIdentity(d: TestDaemon, body: Record<string, unknown> = {}, key?: string): Promise<any> {
  const res = await d.api('POST', '/v1/emails/identity', body, key === undefined ? {} : { key });
  if (res.status !== 200) throw new Error(`POST /v1/emails/identity answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function send(d: TestDaemon, body: Record<string, unknown>, key?: string): Promise<any> {
  const res = await d.api('POST', '/v1/emails', body, key === undefined ? {} : { key });
  if (res.status !== 202) throw new Error(`POST /v1/emails answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Polls GET /v1/emails/{id} until `done` holds. */
export async function waitForEmail(d: TestDaemon, id: string, done: (email: any) => boolean, what: string, timeoutMs = 20_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await d.api('GET', `/v1/emails/${id}`);
    if (res.status === 200 && done(res.body)) return res.body;
    if (Date.now() > deadline) throw new Error(`email ${id}: timed out waiting for ${what}; last seen ${JSON.stringify(res.body)}\n${d.logs().slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Whether the message is on the outbound queue. Off it (delivered, given up, held for approval, rejected), no worker
 * sends it: what a test checks instead of waiting a while for a send that should not come.
 */
export function onOutboundQueue(d: TestDaemon, emailId: string): boolean {
  return withStore(d, (store) => store.emails.queueRow(emailId) !== undefined);
}

/** The admin services on the daemon's data directory, as the CLI's admin commands use them. */
export function admin<T>(d: TestDaemon, fn: (services: AdminServices) => T): Promise<T> {
  return withDataDirectory(d.home, process.env, fn);
}

/** Where the running daemon's inbound SMTP server listens, from its state file (written just after it listens). */
export async function smtpPortOf(d: TestDaemon): Promise<number> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      const state = JSON.parse(readFileSync(dataPaths(d.home).daemonState, 'utf8')) as { pid: number; smtp?: string };
      const port = Number(state.smtp?.split(':').at(-1));
      if (state.pid === d.process.pid && Number.isInteger(port) && port > 0) return port;
    } catch {
      // Not written yet.
    }
    if (Date.now() > deadline) throw new Error(`the daemon's state file names no SMTP server\n${d.logs().slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Mails `raw` to the daemon's SMTP server on `port` as another server would (`from: ''` is the null sender of reports). */
export async function mailIn(port: number, envelope: { from: string; to: string }, raw: string): Promise<void> {
  const client = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
  try {
    await client.sendMail({ envelope: { from: envelope.from, to: [envelope.to] }, raw: raw.replace(/\n/g, '\r\n') });
  } finally {
    client.close();
  }
}

/** An RFC 3464 delivery-status report about `recipient`, mailed back to `to`. */
export function deliveryStatusReport(to: string, recipient: string, status: string, action = 'failed'): string {
  return `From: Mail Delivery System <MAILER-DAEMON@mx.example.test>
To: ${to}
Subject: Undelivered Mail Returned to Sender
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="RPT"

--RPT
Content-Type: text/plain; charset=us-ascii

This is the mail system at host mx.example.test. I'm sorry to have to inform you that your message could not
be delivered to one or more recipients.

--RPT
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.example.test
Arrival-Date: Mon, 23 Nov 2026 09:00:00 +0000

Final-Recipient: rfc822; ${recipient}
Original-Recipient: rfc822;${recipient}
Action: ${action}
Status: ${status}
Diagnostic-Code: smtp; 550 ${status} <${recipient}>: Recipient address rejected:
 User unknown in virtual mailbox table

--RPT
Content-Type: text/rfc822-headers

From: Errand <default@relay.test>
Subject: Hello

--RPT--
`;
}

/** An RFC 5965 feedback (abuse) report about `recipient`, mailed back to `to`. */
export function feedbackReport(to: string, recipient: string | null): string {
  return `From: Feedback Loop <fbl@isp.example.test>
To: ${to}
Subject: FW: Hello
MIME-Version: 1.0
Content-Type: multipart/report; report-type=feedback-report; boundary="FBL"

--FBL
Content-Type: text/plain

This is an email abuse report for an email message received from IP 127.0.0.1.

--FBL
Content-Type: message/feedback-report

Feedback-Type: abuse
User-Agent: ExampleFBL/1.0
Version: 1
Original-Mail-From: <${to}>
${recipient === null ? '' : `Original-Rcpt-To: <${recipient}>\n`}Arrival-Date: Mon, 23 Nov 2026 09:00:00 +0000

--FBL
Content-Type: message/rfc822

From: Errand <default@relay.test>
Subject: Hello

Hello.
--FBL--
`;
}
