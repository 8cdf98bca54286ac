/**
 * Sending (issue 15, items 1-3) through the real, compiled daemon, with a real SMTP server on loopback as its relay:
 * the identity, the delivered MIME, idempotency, caps, approval, scheduling, refusals, and the relay's answers.
 */
import { dkimVerify } from 'mailauth';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectError, idPattern } from '../../api/harness.js';
import { SmtpSink } from '../../fixtures/smtp-sink.js';
import { startDaemon, type TestDaemon } from '../../fixtures/test-daemon.js';
import { admin, configureIdentity, DKIM_SELECTOR, dkimKeyFile, mailEnv, onOutboundQueue, RELAY, send, startMailDaemon, waitForEmail, type DkimKeyFile } from '../harness.js';

let sink: SmtpSink;
let dkim: DkimKeyFile;
let d: TestDaemon;

beforeAll(async () => {
  sink = await SmtpSink.start();
  dkim = dkimKeyFile();
  d = await startMailDaemon({ sink, dkim, env: { ERRAND_MAIL_DAILY_SEND_CAP: '40' } });
});

afterAll(async () => {
  await d?.cleanup();
  await sink?.close();
  dkim?.remove();
});

beforeEach(() => {
  sink.rcpt = () => null;
  sink.mailFrom = () => null;
});

/** DNS for mailauth's DKIM check: the selector's record of the test key, nothing else. */
async function dkimResolver(name: string, type: string): Promise<string[][]> {
  if (type === 'TXT' && name === `${DKIM_SELECTOR}._domainkey.${RELAY}`) return [[dkim.publicRecord]];
  throw Object.assign(new Error(`no ${type} for ${name}`), { code: 'ENOTFOUND' });
}

describe('the email identity', () => {
  it('answers 400 email_not_configured to a send before the identity exists', async () => {
    const res = await d.api('POST', '/v1/emails', { to: 'a@example.test', subject: 'hi', text: 'x' });
    expectError(res, 400, { type: 'invalid_request_error', code: 'email_not_configured' });
    expectError(await d.api('GET', '/v1/emails/identity'), 404, { type: 'not_found_error' });
  });

  it("answers another organisation that has none with 404 in words of its own, never an id as if it were the identity's", async () => {
    await configureIdentity(d, {});
    const other = d.createOrgWithKey('No Mail Yet');
    const res = await d.api('GET', '/v1/emails/identity', undefined, { key: other.key });
    expectError(res, 404, { type: 'not_found_error', code: 'resource_missing' });
    expect(res.body.error.message).toBe('The organisation has no email identity yet; POST /v1/emails/identity allocates one');
    expect(res.body.error.message).not.toContain(other.orgId);
    const verify = await d.api('POST', '/v1/emails/identity/domain/verify', undefined, { key: other.key });
    expect(verify.body.error.message).toBe('The organisation has no email identity yet; POST /v1/emails/identity allocates one');
  });

  it("is allocated on the first POST as <org handle>@<relay domain>, with a webhook_secret only POST shows", async () => {
    const identity = await configureIdentity(d, {});
    expect(identity).toMatchObject({ object: 'email_identity', address: `default@${RELAY}`, username: 'default', callback_url: null, domain: null, require_approval: false });
    expect(identity.webhook_secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const got = await d.api('GET', '/v1/emails/identity');
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ address: `default@${RELAY}`, username: 'default' });
    expect(got.body).not.toHaveProperty('webhook_secret');
    expect(JSON.stringify(got.body)).not.toContain(identity.webhook_secret);
    // A second POST keeps the secret; a rotation replaces it.
    expect((await configureIdentity(d, {})).webhook_secret).toBe(identity.webhook_secret);
  });

  it('takes a username of 3-32 a-z, 0-9 and hyphen, unique across organisations', async () => {
    expectError(await d.api('POST', '/v1/emails/identity', { username: 'Ab' }), 400, { type: 'invalid_request_error', param: 'username' });
    expectError(await d.api('POST', '/v1/emails/identity', { username: 'x'.repeat(33) }), 400, { type: 'invalid_request_error', param: 'username' });
    expectError(await d.api('POST', '/v1/emails/identity', { username: 'run-mine' }), 409, { type: 'conflict_error', code: 'username_taken', param: 'username' });
    const other = d.createOrgWithKey('Acme Corp');
    const acme = await configureIdentity(d, {}, other.key);
    expect(acme.address).toBe(`acme-corp@${RELAY}`);
    expectError(await d.api('POST', '/v1/emails/identity', { username: 'acme-corp' }), 409, { type: 'conflict_error', code: 'username_taken', param: 'username' });
    const renamed = await configureIdentity(d, { username: 'support-team' });
    expect(renamed.address).toBe(`support-team@${RELAY}`);
  });

  it('rotates the webhook_secret on request', async () => {
    const before = await configureIdentity(d, {});
    const after = await configureIdentity(d, { rotate_webhook_secret: true });
    expect(after.webhook_secret).not.toBe(before.webhook_secret);
    expect(after.previous_webhook_secret_expires_at).not.toBeNull();
  });
});

describe('POST /v1/emails', () => {
  it('delivers one message to every recipient: no Bcc anywhere, a correlation Reply-To, text and HTML parts, a valid DKIM signature', async () => {
    const start = sink.messages.length;
    const result = await send(d, {
      to: ['Ann@Example.test', 'bob@example.test'],
      cc: ['carol@example.test'],
      bcc: ['secret@example.test'],
      subject: 'Quarterly numbers',
      body_markdown: '# Numbers\n\nRevenue is **up**. See [the report](https://example.test/r).',
      from_name: 'Finance Bot',
      metadata: { ticket: 42 },
    });
    expect(result).toMatchObject({ message_id: expect.stringMatching(idPattern('msg')), from_address: `support-team@${RELAY}`, status: 'sent', suppressed: [] });
    expect(result.correlation_token).toMatch(/^[0-9a-z]{29}$/);
    expect(result.reply_to).toMatchObject({ address: `support-team+${result.correlation_token}@${RELAY}`, reason: 'relay_fallback' });

    const [message] = (await sink.waitFor(start + 1)).slice(start);
    expect(message!.envelope.to.sort()).toEqual(['ann@example.test', 'bob@example.test', 'carol@example.test', 'secret@example.test']);
    expect(message!.envelope.from).toBe(result.reply_to.address);
    const raw = message!.raw.toString('utf8');
    expect(raw).not.toMatch(/secret@example\.test/i);
    expect(raw).not.toMatch(/^bcc:/im);
    const parsed = await simpleParser(message!.raw);
    expect(parsed.from?.value).toEqual([{ name: 'Finance Bot', address: `support-team@${RELAY}` }]);
    expect((Array.isArray(parsed.to) ? parsed.to : [parsed.to]).flatMap((a) => a!.value.map((v) => v.address))).toEqual(['Ann@example.test', 'bob@example.test']);
    expect(parsed.replyTo?.value[0]?.address).toBe(result.reply_to.address);
    expect(parsed.messageId).toBe(`<${result.message_id}@${RELAY}>`);
    expect(parsed.text).toContain('Revenue is **up**');
    expect(parsed.html).toContain('<strong>up</strong>');
    expect(parsed.html).toMatch(/<h1[^>]*style="[^"]*line-height/);

    const verdict = await dkimVerify(message!.raw, { resolver: dkimResolver as never });
    expect(verdict.results[0]).toMatchObject({ signingDomain: RELAY, selector: DKIM_SELECTOR, status: { result: 'pass' } });
  });

  it('answers GET /v1/emails/{id} with each recipient\'s delivery state, and lists sends newest first', async () => {
    const result = await send(d, { to: 'dave@example.test', bcc: ['eve@example.test'], subject: 'Status', text: 'plain text only' });
    const email = await waitForEmail(d, result.message_id, (e) => e.recipients.every((r: any) => r.status === 'delivered'), 'delivery');
    expect(email).toMatchObject({ object: 'email', id: result.message_id, to: ['dave@example.test'], bcc: ['eve@example.test'], subject: 'Status', metadata: null, inbox_id: null });
    expect(email.recipients.map((r: any) => r.kind)).toEqual(['to', 'bcc']);
    const list = await d.api('GET', '/v1/emails?limit=1');
    expect(list.body).toMatchObject({ object: 'list', has_more: true, data: [{ id: result.message_id }] });
    const raw = await d.api('GET', `/v1/emails/${result.message_id}/raw`);
    expect(raw.headers.get('content-type')).toMatch(/^message\/rfc822/);
    expect(raw.body).toContain('plain text only');
  });

  it('answers a repeated client_id with the original 202 and sends nothing; the same client_id with another body is 409', async () => {
    const body = { to: 'frank@example.test', subject: 'Once', text: 'only once', client_id: 'order-77' };
    const first = await d.api('POST', '/v1/emails', body);
    expect(first.status).toBe(202);
    await waitForEmail(d, first.body.message_id, (e) => e.recipients[0].status === 'delivered', 'delivery');
    const again = await d.api('POST', '/v1/emails', { ...body });
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expectError(await d.api('POST', '/v1/emails', { ...body, text: 'changed' }), 409, { type: 'conflict_error', code: 'idempotency_key_reused', param: 'client_id' });
    // One message, delivered and off the queue: nothing is left that could send to frank again.
    const toFrank = (await d.api('GET', '/v1/emails?limit=200')).body.data.filter((e: any) => e.to.includes('frank@example.test'));
    expect(toFrank.map((e: any) => e.message_id)).toEqual([first.body.message_id]);
    expect(onOutboundQueue(d, first.body.message_id)).toBe(false);
    expect(sink.to('frank@example.test')).toHaveLength(1);
  });

  it('neutralises nothing it can refuse: CR or LF in subject or from_name is a 400, and the daemon stays up', async () => {
    expectError(await d.api('POST', '/v1/emails', { to: 'g@example.test', subject: 'Hi\r\nBcc: victim@example.test', text: 'x' }), 400, {
      type: 'invalid_request_error',
      param: 'subject',
    });
    expectError(await d.api('POST', '/v1/emails', { to: 'g@example.test', subject: 'Hi', from_name: 'Bot\r\nBcc: victim@example.test', text: 'x' }), 400, {
      type: 'invalid_request_error',
      param: 'from_name',
    });
    expectError(await d.api('POST', '/v1/emails', { to: 'g@example.test\r\nBcc: victim@example.test', subject: 'Hi', text: 'x' }), 400, { type: 'invalid_request_error', param: 'to' });
    expect((await d.api('GET', '/healthz', undefined, { key: null })).status).toBe(200);
    expect(sink.messages.some((m) => m.envelope.to.includes('victim@example.test'))).toBe(false);
  });

  it('refuses 10,000 recipients with 400 too_many_recipients, and bodies that are not a message', async () => {
    const to = Array.from({ length: 10_000 }, (_, i) => `r${i}@example.test`);
    expectError(await d.api('POST', '/v1/emails', { to, subject: 'Spam', text: 'x' }), 400, { type: 'invalid_request_error', code: 'too_many_recipients', param: 'to' });
    expectError(await d.api('POST', '/v1/emails', { to: 'a@example.test', subject: 'No body' }), 400, { type: 'invalid_request_error', param: 'text' });
    expectError(await d.api('POST', '/v1/emails', { to: 'not-an-address', subject: 'x', text: 'x' }), 400, { type: 'invalid_request_error', param: 'to' });
    expectError(await d.api('POST', '/v1/emails', { to: [], subject: 'x', text: 'x' }), 400, { type: 'invalid_request_error', param: 'to' });
    expectError(await d.api('POST', '/v1/emails', { to: 'a@example.test', subject: 'x', text: 'x', colour: 'red' }), 400, { type: 'invalid_request_error', code: 'unknown_parameter', param: 'colour' });
    expect((await d.api('GET', '/healthz', undefined, { key: null })).status).toBe(200);
  });

  it('keeps a send_at in the future as scheduled, and sends it when the time comes', async () => {
    const sendAt = new Date(Date.now() + 1500).toISOString();
    const result = await send(d, { to: 'later@example.test', subject: 'Later', text: 'in a moment', send_at: sendAt });
    expect(result.status).toBe('scheduled');
    expect(sink.to('later@example.test')).toHaveLength(0);
    const email = await waitForEmail(d, result.message_id, (e) => e.status === 'sent' && e.recipients[0].status === 'delivered', 'the scheduled send');
    expect(email.send_at).toBe(sendAt);
    expect(sink.to('later@example.test')).toHaveLength(1);
  });

  it('holds sends for approval when the organisation requires it; approved ones go out, rejected ones never do', async () => {
    await admin(d, ({ emailApprovals }) => emailApprovals.setRequired(d.orgId, true));
    const a = await send(d, { to: 'approve-me@example.test', subject: 'A', text: 'a' });
    const b = await send(d, { to: 'reject-me@example.test', subject: 'B', text: 'b' });
    expect([a.status, b.status]).toEqual(['pending_approval', 'pending_approval']);
    // Held off the outbound queue until a person approves: no worker can send them.
    expect([onOutboundQueue(d, a.message_id), onOutboundQueue(d, b.message_id)]).toEqual([false, false]);
    expect(sink.to('approve-me@example.test')).toHaveLength(0);
    const pending = await admin(d, ({ emailApprovals }) => emailApprovals.pending(d.orgId));
    expect(pending.map((p) => p.id).sort()).toEqual([a.message_id, b.message_id].sort());
    expect(await admin(d, ({ emailApprovals }) => emailApprovals.approve(a.message_id))).toEqual({ id: a.message_id, status: 'sent' });
    expect(await admin(d, ({ emailApprovals }) => emailApprovals.reject(b.message_id))).toEqual({ id: b.message_id, status: 'rejected' });
    await admin(d, ({ emailApprovals }) => emailApprovals.setRequired(d.orgId, false));
    await waitForEmail(d, a.message_id, (e) => e.recipients[0].status === 'delivered', 'the approved send');
    const rejected = await waitForEmail(d, b.message_id, (e) => e.status === 'rejected', 'the rejection');
    expect(rejected.recipients[0].status).toBe('rejected');
    expect(onOutboundQueue(d, b.message_id)).toBe(false);
    expect(sink.to('reject-me@example.test')).toHaveLength(0);
  });

  it('retries a recipient the relay defers, and suppresses one it refuses for good', async () => {
    let deferrals = 0;
    sink.rcpt = (address) => {
      if (address === 'busy@example.test' && deferrals++ < 1) return { code: 451, message: '4.7.1 try again later' };
      if (address === 'gone@example.test') return { code: 550, message: '5.1.1 no such user' };
      return null;
    };
    const result = await send(d, { to: ['busy@example.test', 'gone@example.test'], subject: 'Hello', text: 'hi' });
    const email = await waitForEmail(d, result.message_id, (e) => e.recipients.every((r: any) => ['delivered', 'bounced'].includes(r.status)), 'both answers');
    expect(email.recipients).toEqual([
      expect.objectContaining({ address: 'busy@example.test', status: 'delivered' }),
      expect.objectContaining({ address: 'gone@example.test', status: 'bounced', detail: expect.stringContaining('5.1.1') }),
    ]);
    expect(deferrals).toBe(2);
    const suppressions = await d.api('GET', '/v1/emails/suppressions');
    expect(suppressions.body.data).toContainEqual(expect.objectContaining({ object: 'email_suppression', address: 'gone@example.test', reason: 'bounce', email_id: result.message_id }));

    const next = await send(d, { to: ['gone@example.test', 'still-here@example.test'], subject: 'Again', text: 'hi' });
    expect(next.suppressed).toEqual(['gone@example.test']);
    await waitForEmail(d, next.message_id, (e) => e.recipients.find((r: any) => r.address === 'still-here@example.test')?.status === 'delivered', 'delivery');
    expect(sink.messages.at(-1)!.envelope.to).toEqual(['still-here@example.test']);
    expectError(await d.api('POST', '/v1/emails', { to: 'gone@example.test', subject: 'x', text: 'x' }), 400, { type: 'invalid_request_error', code: 'all_recipients_suppressed' });

    expect((await d.api('DELETE', '/v1/emails/suppressions/gone@example.test')).body).toEqual({ address: 'gone@example.test', object: 'email_suppression', livemode: true, deleted: true });
    expectError(await d.api('DELETE', '/v1/emails/suppressions/gone@example.test'), 404, { type: 'not_found_error' });
  });

  it('answers 400 send_cap_reached once the day\'s recipients would pass mail.daily_send_cap', async () => {
    const sent = (await d.api('GET', '/v1/emails?limit=200')).body.data.filter((e: any) => e.status !== 'rejected');
    const used = sent.reduce((n: number, e: any) => n + e.recipients.filter((r: any) => r.status !== 'suppressed').length, 0);
    const left = 40 - used;
    expect(left).toBeGreaterThan(1);
    const to = Array.from({ length: left }, (_, i) => `cap${i}@example.test`);
    expectError(await d.api('POST', '/v1/emails', { to: [...to, 'one-too-many@example.test'], subject: 'x', text: 'x' }), 400, {
      type: 'invalid_request_error',
      code: 'send_cap_reached',
    });
    await send(d, { to, subject: 'up to the cap', text: 'x' });
    expectError(await d.api('POST', '/v1/emails', { to: 'more@example.test', subject: 'x', text: 'x' }), 400, { type: 'invalid_request_error', code: 'send_cap_reached' });
  });

  it("keeps other organisations' sends out of reach", async () => {
    const other = d.createOrgWithKey('other-co');
    const mine = (await d.api('GET', '/v1/emails?limit=1')).body.data[0].id;
    expectError(await d.api('GET', `/v1/emails/${mine}`, undefined, { key: other.key }), 404, { type: 'not_found_error' });
    expect((await d.api('GET', '/v1/emails', undefined, { key: other.key })).body.data).toEqual([]);
  });
});

describe('a daemon without a relay', () => {
  it('answers 400 email_not_configured, unless mail.transport is capture, which keeps messages in the data directory', async () => {
    const bare = await startDaemon({ env: mailEnv({}) });
    try {
      await configureIdentity(bare, {});
      expectError(await bare.api('POST', '/v1/emails', { to: 'a@example.test', subject: 'x', text: 'x' }), 400, { type: 'invalid_request_error', code: 'email_not_configured' });
    } finally {
      await bare.cleanup();
    }
    const capture = await startDaemon({ env: mailEnv({ env: { ERRAND_MAIL_TRANSPORT: 'capture' } }) });
    try {
      await configureIdentity(capture, {});
      const result = await send(capture, { to: 'dev@example.test', subject: 'Captured', text: 'kept, not sent' });
      const email = await waitForEmail(capture, result.message_id, (e) => e.recipients[0].status === 'delivered', 'the capture');
      expect(email.recipients[0].detail).toContain(`${result.message_id}.eml`);
      const raw = await capture.api('GET', `/v1/emails/${result.message_id}/raw`);
      expect(raw.body).toContain('kept, not sent');
    } finally {
      await capture.cleanup();
    }
  });
});
