/**
 * Bounces and complaints (issue 15, item 6): RFC 3464 delivery-status reports and RFC 5965 feedback reports mailed
 * to a message's correlation address put its recipient on the suppression list and send email.bounced /
 * email.complained, signed with the identity's secret; later sends drop them into `suppressed`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventLog } from '../../../src/event-log/event-log.js';
import { EventBus } from '../../../src/events.js';
import { systemClock } from '../../../src/clock.js';
import { withStore } from '../../api/harness.js';
import { SmtpSink } from '../../fixtures/smtp-sink.js';
import { startDaemon, type TestDaemon } from '../../fixtures/test-daemon.js';
import { WebhookReceiver } from '../../fixtures/webhook-receiver.js';
import { configureIdentity, deliveryStatusReport, feedbackReport, mailEnv, mailIn, send, smtpPortOf, waitForEmail } from '../harness.js';

let sink: SmtpSink;
let receiver: WebhookReceiver;
let d: TestDaemon;
let port: number;

beforeAll(async () => {
  sink = await SmtpSink.start();
  d = await startDaemon({ env: mailEnv({ sink }) });
  port = await smtpPortOf(d);
  receiver = await WebhookReceiver.start([]);
  receiver.secrets = [(await configureIdentity(d, { callback_url: receiver.url('/mail') })).webhook_secret];
});

afterAll(async () => {
  await d?.cleanup();
  await receiver?.close();
  await sink?.close();
});

/** Mails a report the way a receiving MTA does: from the null sender, to the envelope sender of our message. */
const mailReport = (to: string, raw: string) => mailIn(port, { from: '', to }, raw);

async function webhook(event: string, messageId: string): Promise<any> {
  const delivery = await receiver.waitFor((ds) => ds.find((x) => x.json?.event === event && x.json.data.message_id === messageId), `${event} for ${messageId}`);
  expect(delivery.verifiedWith).toBe(receiver.secrets[0]);
  return delivery.json.data;
}

describe('an RFC 3464 bounce at the correlation address', () => {
  it('suppresses the recipient, marks it bounced and sends email.bounced with the original metadata', async () => {
    const sent = await send(d, { to: ['gone@example.test', 'fine@example.test'], subject: 'Hello', text: 'hi', metadata: { campaign: 'nov' } });
    const outgoing = (await sink.waitFor(1)).find((m) => m.raw.toString().includes(sent.message_id))!;
    const bounceTo = outgoing.envelope.from;
    expect(bounceTo).toBe(sent.reply_to.address);

    // A delayed (4.x.x) report changes nothing; a failed 5.x.x one bounces.
    await mailReport(bounceTo, deliveryStatusReport(bounceTo, 'fine@example.test', '4.4.1', 'delayed'));
    await mailReport(bounceTo, deliveryStatusReport(bounceTo, 'gone@example.test', '5.1.1'));
    const data = await webhook('email.bounced', sent.message_id);
    expect(data).toEqual({
      message_id: sent.message_id,
      correlation_token: sent.correlation_token,
      recipient: 'gone@example.test',
      status: '5.1.1',
      diagnostic: expect.stringContaining('User unknown'),
      source: 'report',
      suppressed: true,
      bounced_at: expect.any(String),
      metadata: { campaign: 'nov' },
    });
    const email = await waitForEmail(d, sent.message_id, (e) => e.recipients[0].status === 'bounced', 'the bounce');
    expect(email.recipients[1]).toMatchObject({ address: 'fine@example.test', status: 'delivered' });
    const list = await d.api('GET', '/v1/emails/suppressions');
    expect(list.body.data).toEqual([expect.objectContaining({ address: 'gone@example.test', reason: 'bounce', email_id: sent.message_id })]);

    const next = await send(d, { to: ['gone@example.test', 'fine@example.test'], subject: 'Again', text: 'hi' });
    expect(next.suppressed).toEqual(['gone@example.test']);
    const events = withStore(d, (store) => new EventLog({ store: store.events, clock: systemClock, events: new EventBus() }).orgEvents(d.orgId, 0, 1000));
    expect(events.filter((e) => e.type === 'email.bounced')).toHaveLength(1);
  });

  it('ignores a report naming someone the message was not sent to', async () => {
    const sent = await send(d, { to: 'kept@example.test', subject: 'Hello', text: 'hi' });
    await mailReport(sent.reply_to.address, deliveryStatusReport(sent.reply_to.address, 'victim@example.test', '5.1.1'));
    await mailReport(sent.reply_to.address, deliveryStatusReport(sent.reply_to.address, 'kept@example.test', '5.2.2'));
    await webhook('email.bounced', sent.message_id);
    const list = (await d.api('GET', '/v1/emails/suppressions')).body.data.map((s: any) => s.address);
    expect(list).toContain('kept@example.test');
    expect(list).not.toContain('victim@example.test');
  });
});

describe('an RFC 5965 complaint at the correlation address', () => {
  it('suppresses the complaining recipient and sends email.complained', async () => {
    const sent = await send(d, { to: ['angry@example.test', 'calm@example.test'], subject: 'Offer', text: 'buy', metadata: { list: 'promo' } });
    await mailReport(sent.reply_to.address, feedbackReport(sent.reply_to.address, 'angry@example.test'));
    const data = await webhook('email.complained', sent.message_id);
    expect(data).toMatchObject({ recipient: 'angry@example.test', feedback_type: 'abuse', user_agent: 'ExampleFBL/1.0', suppressed: true, metadata: { list: 'promo' } });
    const suppression = (await d.api('GET', '/v1/emails/suppressions')).body.data.find((s: any) => s.address === 'angry@example.test');
    expect(suppression).toMatchObject({ reason: 'complaint', email_id: sent.message_id });
    const next = await send(d, { to: ['angry@example.test', 'calm@example.test'], subject: 'x', text: 'x' });
    expect(next.suppressed).toEqual(['angry@example.test']);
  });

  it('without Original-Rcpt-To, blames the only recipient of a one-recipient message', async () => {
    const sent = await send(d, { to: 'solo@example.test', subject: 'Offer', text: 'buy' });
    await mailReport(sent.reply_to.address, feedbackReport(sent.reply_to.address, null));
    expect(await webhook('email.complained', sent.message_id)).toMatchObject({ recipient: 'solo@example.test', suppressed: true });
  });
});

describe('a recipient the relay refuses for good', () => {
  it('is suppressed and announced as email.bounced from the relay', async () => {
    sink.rcpt = (address) => (address === 'refused@example.test' ? { code: 550, message: '5.1.1 mailbox unavailable' } : null);
    try {
      const sent = await send(d, { to: 'refused@example.test', subject: 'Hi', text: 'hi' });
      expect(await webhook('email.bounced', sent.message_id)).toMatchObject({ recipient: 'refused@example.test', status: '5.1.1', source: 'relay' });
      // Bounced once, by the attempt that heard the relay: the recipient keeps the relay's own words.
      const email = await waitForEmail(d, sent.message_id, (e) => e.recipients[0].status === 'bounced', 'the bounce');
      expect(email.recipients[0].detail).toMatch(/^550 5\.1\.1 mailbox unavailable/);
    } finally {
      sink.rcpt = () => null;
    }
  });
});
