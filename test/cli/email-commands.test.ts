/**
 * `errand email ...` and `errand inboxes ...` (issue 15, item 9), run as a user runs them, against the compiled
 * daemon with a loopback SMTP sink as its relay and a loopback DNS server for the domain check.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoopbackDns } from '../fixtures/dns-server.js';
import { SmtpSink } from '../fixtures/smtp-sink.js';
import { startDaemon, type TestDaemon } from '../fixtures/test-daemon.js';
import { mailEnv, RELAY, smtpPortOf, waitForEmail } from '../mail/harness.js';
import { runCli } from './run-cli.js';

let sink: SmtpSink;
let dns: LoopbackDns;
let d: TestDaemon;
const cli = (...args: string[]) => runCli(['--home', d.home, ...args], { env: { ERRAND_API_URL: d.url, ERRAND_API_KEY: d.key } });

beforeAll(async () => {
  sink = await SmtpSink.start();
  dns = await LoopbackDns.start();
  d = await startDaemon({ env: mailEnv({ sink, env: { ERRAND_DNS_SERVERS: dns.server, ERRAND_MAIL_MX_HOST: `mx.${RELAY}` } }) });
});

afterAll(async () => {
  await d?.cleanup();
  await sink?.close();
  await dns?.close();
});

describe('errand email identity', () => {
  it('says how to allocate it before it exists, then allocates it and prints its secret once', async () => {
    const missing = await cli('email', 'identity');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('errand email identity --allocate');
    const allocated = await cli('email', 'identity', '--allocate', '--json');
    expect(allocated.code, allocated.stderr).toBe(0);
    expect(allocated.json()).toMatchObject({ object: 'email_identity', address: `default@${RELAY}`, webhook_secret: expect.stringMatching(/^whsec_/) });
    const shown = await cli('email', 'identity');
    expect(shown.stdout).toContain(`default@${RELAY}`);
    expect(shown.stdout + shown.stderr).not.toContain('whsec_');
  });
});

describe('errand email received', () => {
  it('lists received mail newest first, filtered by time and inbox, and email show prints a received message', async () => {
    const port = await smtpPortOf(d);
    await new Promise<void>((resolve, reject) =>
      execFile('swaks', ['--server', `127.0.0.1:${port}`, '--from', 'ada@other.test', '--to', `default@${RELAY}`, '--header', 'Subject: Hello from Ada', '--body', 'Is this thing on?'], (err, out) =>
        err === null ? resolve() : reject(new Error(out)),
      ),
    );
    const listed = (await cli('email', 'received', '--json')).json();
    expect(listed.data[0]).toMatchObject({ kind: 'message', from: 'ada@other.test', subject: 'Hello from Ada' });
    const table = await cli('email', 'received', '--since', '1h');
    expect(table.stdout).toMatch(/^ID\s+KIND\s+FROM\s+SUBJECT\s+TO\s+RECEIVED$/m);
    expect(table.stdout).toMatch(/msg_\w+\s+message\s+ada@other\.test\s+Hello from Ada\s+default@relay\.test/);
    const later = new Date(Date.now() + 60_000).toISOString();
    expect((await cli('email', 'received', '--since', later, '--json')).json().data).toEqual([]);
    expect((await cli('email', 'received', '--inbox', 'inb_01aaaaaaaaaaaaaaaaaaaaaaaa', '--json')).json().data).toEqual([]);
    const bad = await cli('email', 'received', '--since', 'last tuesday');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('expected an RFC 3339 time');
    const shown = await cli('email', 'show', listed.data[0].message_id);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/^from:\s+ada@other\.test$/m);
    expect(shown.stdout).toContain('Is this thing on?');
  });
});

describe('errand email send, list and show', () => {
  it('sends from files and flags, lists it, shows its recipients and its raw message', async () => {
    const body = join(d.home, 'body.md');
    writeFileSync(body, '# Hello\n\nFrom a **file**.');
    const sent = await cli('email', 'send', '--to', 'a@example.test', '--to', 'b@example.test', '--bcc', 'c@example.test', '--subject', 'From the CLI', '--markdown', `@${body}`, '--metadata', '{"via":"cli"}', '--json');
    expect(sent.code, sent.stderr).toBe(0);
    const result = sent.json();
    expect(result).toMatchObject({ status: 'sent', from_address: `default@${RELAY}` });
    await waitForEmail(d, result.message_id, (e) => e.recipients.every((r: any) => r.status === 'delivered'), 'delivery');

    const list = (await cli('email', 'list', '--json')).json();
    expect(list.data[0]).toMatchObject({ id: result.message_id, subject: 'From the CLI' });
    const table = await cli('email', 'list');
    expect(table.stdout).toMatch(/From the CLI\s+3\/3/);
    const shown = await cli('email', 'show', result.message_id);
    expect(shown.stdout).toMatch(/c@example\.test\s+bcc\s+delivered/);
    const raw = await cli('email', 'show', result.message_id, '--raw');
    expect(raw.stdout).toContain('Subject: From the CLI');
    expect(raw.stdout).not.toContain('c@example.test');

    const usage = await cli('email', 'send', '--to', 'a@example.test', '--subject', 'no body');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('give a body');
  });
});

describe('errand email approval, pending, approve and reject', () => {
  it('holds sends for a person and lets them through or not', async () => {
    expect((await cli('email', 'approval', 'on', '--json')).json()).toMatchObject({ require_approval: true });
    const first = (await cli('email', 'send', '--to', 'x@example.test', '--subject', 'Hold me', '--text', 'x', '--json')).json();
    const second = (await cli('email', 'send', '--to', 'y@example.test', '--subject', 'Drop me', '--text', 'y', '--json')).json();
    expect(first.status).toBe('pending_approval');
    const pending = (await cli('email', 'pending', '--json')).json();
    expect(pending.map((p: any) => p.id).sort()).toEqual([first.message_id, second.message_id].sort());
    expect((await cli('email', 'approve', first.message_id, '--json')).json()).toEqual({ id: first.message_id, status: 'sent' });
    expect((await cli('email', 'reject', second.message_id)).stdout).toContain('rejected');
    const again = await cli('email', 'approve', second.message_id);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('not waiting for approval');
    await cli('email', 'approval', 'off');
    await waitForEmail(d, first.message_id, (e) => e.recipients[0].status === 'delivered', 'the approved send');
  });
});

describe('errand email suppressions', () => {
  it('lists and removes suppressed recipients', async () => {
    sink.rcpt = (address) => (address === 'bounced@example.test' ? { code: 550, message: '5.1.1 no such user' } : null);
    const sent = (await cli('email', 'send', '--to', 'bounced@example.test', '--subject', 'x', '--text', 'x', '--json')).json();
    await waitForEmail(d, sent.message_id, (e) => e.recipients[0].status === 'bounced', 'the bounce');
    sink.rcpt = () => null;
    const list = (await cli('email', 'suppressions', 'list', '--json')).json();
    expect(list.data).toEqual([expect.objectContaining({ address: 'bounced@example.test', reason: 'bounce' })]);
    expect((await cli('email', 'suppressions', 'remove', 'bounced@example.test')).stdout).toContain('no longer suppressed');
    expect((await cli('email', 'suppressions', 'list', '--json')).json().data).toEqual([]);
  });
});

describe('errand email domain', () => {
  it('sets a sending domain, verifies its MX through dns.servers, and prints the records to publish', async () => {
    expect((await cli('email', 'domain', 'set', 'example.org')).code).toBe(0);
    const before = await cli('email', 'domain', 'verify');
    expect(before.code).toBe(1);
    expect(before.stdout).toContain('NOT verified');
    expect(before.stdout).toContain(`example.org. MX 10 mx.${RELAY}.`);
    expect(before.stdout).toContain('example.org. TXT "v=spf1 mx a:127.0.0.1 ~all"');

    dns.set('example.org', 'MX', [{ exchange: `mx.${RELAY}`, priority: 10 }]);
    const after = await cli('email', 'domain', 'verify', '--json');
    expect(after.code).toBe(0);
    expect(after.json()).toMatchObject({ domain: 'example.org', verified: true, mx_found: [`mx.${RELAY}`] });
    const sent = (await cli('email', 'send', '--to', 'z@example.test', '--subject', 'Own domain', '--text', 'x', '--json')).json();
    expect(sent).toMatchObject({ from_address: 'default@example.org', reply_to: { reason: 'sending_domain', address: `default+${sent.correlation_token}@example.org` } });
    // The verified domain now receives: its correlation addresses and mailboxes, nothing else.
    const port = await smtpPortOf(d);
    const swaks = (to: string) =>
      new Promise<string>((resolve) => execFile('swaks', ['--server', `127.0.0.1:${port}`, '--from', 'z@example.test', '--to', to, '--body', 'reply'], (_e, out) => resolve(out)));
    expect(await swaks(sent.reply_to.address)).toMatch(/<- {2}250 /);
    expect(await swaks('nobody@example.org')).toMatch(/<\*\* 550 /);

    expect((await cli('email', 'domain', 'remove', '--json')).json()).toMatchObject({ domain: null, address: `default@${RELAY}` });
  });
});

describe('errand inboxes', () => {
  it('creates, lists, gets, updates, sends from and deletes an inbox', async () => {
    const created = (await cli('inboxes', 'create', '--username', 'support', '--display-name', 'Support', '--json')).json();
    expect(created).toMatchObject({ object: 'inbox', address: `support@${RELAY}`, display_name: 'Support' });
    expect((await cli('inboxes', 'list')).stdout).toContain(`support@${RELAY}`);
    expect((await cli('inboxes', 'update', created.id, '--display-name', 'Help', '--json')).json().display_name).toBe('Help');
    expect((await cli('inboxes', 'get', created.id)).stdout).toMatch(/display name:\s+Help/);
    const sent = (await cli('inboxes', 'send', created.id, '--to', 'q@example.test', '--subject', 'From support', '--text', 'hi', '--json')).json();
    expect(sent.from_address).toBe(`support@${RELAY}`);
    expect((await cli('inboxes', 'delete', created.id, '--json')).json()).toEqual({ id: created.id, object: 'inbox', livemode: true, deleted: true });
    expect((await cli('inboxes', 'get', created.id)).code).toBe(1);
  });
});
