/**
 * Test mode's email (issue 25; docs/api.md, Test mode): a test-mode send is captured in the data directory and never
 * handed to the relay, even with one configured (a loopback SMTP sink here, which counts what it receives), and a
 * simulated reply to it arrives as email.received, with livemode false, as a live reply would.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmtpSink } from '../fixtures/smtp-sink.js';
import { startDaemon, type TestDaemon } from '../fixtures/test-daemon.js';
import { WebhookReceiver } from '../fixtures/webhook-receiver.js';
import { until } from '../engine/harness.js';
import { configureIdentity, mailEnv, send } from '../mail/harness.js';

let sink: SmtpSink;
let d: TestDaemon;
let receiver: WebhookReceiver;
let testKey: string;

beforeAll(async () => {
  sink = await SmtpSink.start();
  d = await startDaemon({ env: mailEnv({ sink }) });
  testKey = d.createTestKey().key;
  receiver = await WebhookReceiver.start([]);
  receiver.secrets.push((await configureIdentity(d, { callback_url: receiver.url('/test-mail') }, testKey)).webhook_secret);
  await configureIdentity(d);
});
afterAll(async () => {
  await receiver?.close();
  await d?.cleanup();
  await sink?.close();
});

async function delivered(id: string, key: string): Promise<any> {
  return until(`email ${id} to be done with`, async () => {
    const email = (await d.api('GET', `/v1/emails/${id}`, undefined, { key })).body;
    return email.recipients?.every((r: any) => r.status !== 'queued' && r.status !== 'sending') ? email : null;
  });
}

describe('a test-mode email', () => {
  it('is captured, never handed to the configured relay, while a live one goes through it', async () => {
    const test = await send(d, { to: 'ada@example.test', subject: 'Test-mode hello', text: 'hi from test mode' }, testKey);
    const live = await send(d, { to: 'bob@example.test', subject: 'Live hello', text: 'hi from live' });
    const liveEmail = await delivered(live.message_id, d.key);
    expect(liveEmail.recipients[0].status).toBe('delivered');
    const testEmail = await delivered(test.message_id, testKey);
    expect(testEmail).toMatchObject({ livemode: false, recipients: [{ address: 'ada@example.test', status: 'delivered' }] });
    expect(testEmail.recipients[0].detail).toMatch(/^test mode: captured, never sent/);
    expect(existsSync(join(d.home, 'mail', 'test-mode', `${test.message_id}.eml`))).toBe(true);
    expect(sink.messages.map((m) => m.raw.toString())).toEqual([expect.stringContaining('Live hello')]);
    // Each mode's email is the other's 404.
    expect((await d.api('GET', `/v1/emails/${test.message_id}`)).status).toBe(404);
    expect((await d.api('GET', `/v1/emails/${live.message_id}`, undefined, { key: testKey })).status).toBe(404);
  });

  it('gets a reply through simulate_reply: email.received arrives, with livemode false', async () => {
    const sent = await send(d, { to: 'ada@example.test', subject: 'Tuesday?', text: 'Does Tuesday work?' }, testKey);
    const reply = await d.api('POST', `/v1/emails/${sent.message_id}/simulate_reply`, { text: 'Yes, Tuesday works.' }, { key: testKey });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body).toMatchObject({ object: 'received_email', in_reply_to: sent.message_id, livemode: false });
    const [webhook] = await receiver.waitFor((ds) => ds.filter((x) => x.path === '/test-mail').length > 0 && ds.filter((x) => x.path === '/test-mail'), 'the reply webhook');
    expect(receiver.unverified()).toEqual([]);
    expect(webhook!.json).toMatchObject({ event: 'email.received', livemode: false, data: { in_reply_to: sent.message_id } });
  });
});
