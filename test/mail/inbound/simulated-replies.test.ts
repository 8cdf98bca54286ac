import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withStore } from '../../api/harness.js';
import { SmtpSink } from '../../fixtures/smtp-sink.js';
import { startDaemon, type TestDaemon } from '../../fixtures/test-daemon.js';
import { WebhookReceiver } from '../../fixtures/webhook-receiver.js';
import { runCli } from '../../cli/run-cli.js';
import { configureIdentity, mailEnv, send } from '../harness.js';

let sink: SmtpSink;
let d: TestDaemon;
let receiver: WebhookReceiver;
let identitySecret: string;

beforeAll(async () => {
  sink = await SmtpSink.start();
  d = await startDaemon({ env: mailEnv({ sink }) });
  receiver = await WebhookReceiver.start([]);
  identitySecret = (await configureIdentity(d, { callback_url: receiver.url('/mail') })).webhook_secret;
  receiver.secrets.push(identitySecret);
});
afterAll(async () => {
  await receiver?.close();
  await d?.cleanup();
  await sink?.close();
});

describe('POST /v1/emails/{id}/simulate_reply (errand email simulate-reply)', () => {
  it("feeds a reply through the inbound path: correlated with the send, announced as email.received and sent to the identity's callback, marked as a test", async () => {
    const sent = await d.api('POST', '/v1/emails', undefined, {
      headers: { 'content-type': 'application/json' },
      raw: '{"to": ["ada@example.test", "bob@example.test"], "subject": "Tuesday?", "text": "Does Tuesday work?", "metadata": {"ticket" : 42}}',
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(202);
    const id = sent.body.message_id as string;

    const res = await runCli(['--home', d.home, 'email', 'simulate-reply', id, '--text', 'Yes, Tuesday works.\n\n> Does Tuesday work?', '--json'], { env: { ERRAND_API_URL: d.url, ERRAND_API_KEY: d.key } });
    expect(res.code, res.stderr).toBe(0);
    const received = res.json();
    expect(received).toMatchObject({
      object: 'received_email',
      message_id: expect.stringMatching(/^msg_/),
      kind: 'reply',
      in_reply_to: id,
      correlation_token: sent.body.correlation_token,
      from: 'ada@example.test',
      to: [sent.body.reply_to.address],
      subject: 'Re: Tuesday?',
      reply_text: 'Yes, Tuesday works.',
      auth: { spf: 'none', dkim: 'none', dmarc: 'none' },
      metadata: { ticket: 42 },
    });
    expect((await d.api('GET', `/v1/emails/received/${received.message_id}`)).body).toEqual(received);

    const [webhook] = await receiver.waitFor((ds) => ds.filter((x) => x.path === '/mail').length > 0 && ds.filter((x) => x.path === '/mail'), 'the reply webhook');
    expect(receiver.unverified()).toEqual([]);
    expect(webhook!.verifiedWith).toBe(identitySecret);
    expect(webhook!.json).toMatchObject({ event: 'email.received', test: true, data: { message_id: received.message_id, in_reply_to: id, text: expect.stringContaining('Yes, Tuesday works.') } });
    expect(webhook!.body).toContain('"metadata":{"ticket" : 42}');

    // In the event log too, carrying the webhook it sent (what errand listen forwards).
    const logged = withStore(d, (store) => store.events.orgAfter(d.orgId, 0, 1000).filter((e) => e.type === 'email.received').map((e) => store.events.webhook(d.orgId, e.id)));
    expect(logged).toEqual([{ type: 'email.received', webhook_id: webhook!.id, webhook_payload: webhook!.body }]);
  });

  it("answers 404 for another organisation's email, as for one that does not exist", async () => {
    const sent = await send(d, { to: 'ada@example.test', subject: 'Hello', text: 'hi' });
    const other = d.createOrgWithKey('other-org');
    const res = await d.api('POST', `/v1/emails/${sent.message_id}/simulate_reply`, {}, { key: other.key });
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ type: 'not_found_error', code: 'resource_missing' });
  });

  it("answers 400 replies_not_received for an email whose replies go to the caller's own reply_to", async () => {
    const sent = await send(d, { to: 'ada@example.test', subject: 'Hello', text: 'hi', reply_to: 'desk@example.test' });
    const res = await d.api('POST', `/v1/emails/${sent.message_id}/simulate_reply`, {});
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'replies_not_received', param: 'id', message: expect.stringContaining('reply_to the caller gave') });
  });

  it('answers 400 naming the member for a from that is not an address, and for a member it does not know', async () => {
    const sent = await send(d, { to: 'ada@example.test', subject: 'Hello', text: 'hi' });
    const badFrom = await d.api('POST', `/v1/emails/${sent.message_id}/simulate_reply`, { from: 'not an address' });
    expect(badFrom.status).toBe(400);
    expect(badFrom.body.error).toMatchObject({ param: 'from' });
    const unknown = await d.api('POST', `/v1/emails/${sent.message_id}/simulate_reply`, { subject: 'x' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ param: 'subject' });
  });
});

describe('POST /v1/emails/{id}/simulate_reply on an installation that receives no mail', () => {
  it('answers 400 email_not_configured', async () => {
    const off = await startDaemon({ env: mailEnv({ sink, env: { ERRAND_MAIL_INBOUND_ENABLED: 'false' } }) });
    try {
      await configureIdentity(off);
      const sent = await send(off, { to: 'ada@example.test', subject: 'Hello', text: 'hi' });
      const res = await off.api('POST', `/v1/emails/${sent.message_id}/simulate_reply`, {});
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'email_not_configured', message: expect.stringContaining('receives no mail') });
    } finally {
      await off.cleanup();
    }
  });
});
