/**
 * The SMTP metrics (issue 14, item 3, once mail landed): real SMTP exchanges with the compiled daemon, inbound from
 * nodemailer and outbound through a loopback relay (SmtpSink), move `errand_smtp_*`, scraped with a Prometheus
 * text parser; no label names an address, a domain or an id.
 */
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmtpSink } from '../fixtures/smtp-sink.js';
import type { TestDaemon } from '../fixtures/test-daemon.js';
import { configureIdentity, RELAY, send, smtpPortOf, startMailDaemon, waitForEmail } from '../mail/harness.js';
import { labelValues, loggedMetricsUrl, sampleOf, scrape, type Scrape } from './prometheus-scrape.js';

const MAX_MESSAGE_BYTES = 65_536;
const MESSAGES_PER_MINUTE = 5;

let sink: SmtpSink;
let d: TestDaemon;
let metricsUrl: string;
let smtpPort: number;

beforeAll(async () => {
  sink = await SmtpSink.start();
  d = await startMailDaemon({
    sink,
    env: {
      ERRAND_METRICS_PORT: '0',
      ERRAND_MAIL_MAX_MESSAGE_BYTES: String(MAX_MESSAGE_BYTES),
      ERRAND_MAIL_INBOUND_MESSAGES_PER_MINUTE: String(MESSAGES_PER_MINUTE),
      // Retries a second apart, and enough of them that a deferred recipient is not given up while the test looks.
      ERRAND_MAIL_RETRY_SCHEDULE_S: '1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1',
    },
  });
  [metricsUrl, smtpPort] = await Promise.all([loggedMetricsUrl(() => d.logs()), smtpPortOf(d)]);
  await configureIdentity(d, {});
});

afterAll(async () => {
  await d?.cleanup();
  await sink?.close();
});

function counter(m: Scrape, name: string, labels: Record<string, string>): number {
  return Number(sampleOf(m, name, 'COUNTER', labels)?.value ?? 0);
}

/** Sends one message to the daemon's SMTP server with nodemailer; answers the server's refusal, or null. */
async function sendIn(to: string, text = 'hello'): Promise<{ responseCode?: number } | null> {
  const client = nodemailer.createTransport({ host: '127.0.0.1', port: smtpPort, secure: false, ignoreTLS: true });
  try {
    await client.sendMail({ from: 'ann@sender.test', to, subject: 'Metrics', text });
    return null;
  } catch (err) {
    return err as { responseCode?: number };
  } finally {
    client.close();
  }
}

describe('SMTP metrics', () => {
  it('count inbound messages accepted and what was refused, by reason', async () => {
    expect(await sendIn(`default@${RELAY}`)).toBeNull();
    expect(await sendIn(`nobody@${RELAY}`)).toMatchObject({ responseCode: 550 });
    expect(await sendIn('someone@elsewhere.test')).toMatchObject({ responseCode: 550 });
    expect(await sendIn(`default@${RELAY}`, 'x'.repeat(MAX_MESSAGE_BYTES * 2))).toMatchObject({ responseCode: 552 });
    // Each MAIL FROM above took one of the client's messages of this minute; the allowance runs out within two more.
    const last = [await sendIn(`default@${RELAY}`), await sendIn(`default@${RELAY}`)];
    expect(last.filter((r) => r?.responseCode === 451)).not.toHaveLength(0);
    const acceptedLater = last.filter((r) => r === null).length;

    const m = await scrape(metricsUrl);
    const inbound = (outcome: string, reason: string) => counter(m, 'errand_smtp_inbound_total', { outcome, reason });
    expect(inbound('accepted', 'none')).toBe(1 + acceptedLater);
    expect(inbound('refused', 'unknown_recipient')).toBe(1);
    expect(inbound('refused', 'relay_denied')).toBe(1);
    expect(inbound('refused', 'too_large')).toBe(1);
    expect(inbound('refused', 'rate_limited')).toBe(2 - acceptedLater);
    expect(inbound('refused', 'malformed')).toBe(0);
  });

  it('count outbound recipients by result, with the queue as a gauge while a recipient is deferred', async () => {
    let deferring = true;
    sink.rcpt = (address) =>
      address === 'gone@example.test' ? { code: 550, message: '5.1.1 no such user' } : address === 'later@example.test' && deferring ? { code: 451, message: '4.2.0 try later' } : null;
    const sent = await send(d, { to: ['ann@example.test', 'gone@example.test', 'later@example.test'], subject: 'Counted', text: 'hi' });
    await waitForEmail(d, sent.message_id, (e) => e.recipients.every((r: any) => r.status !== 'queued'), 'the first attempt');

    let m = await scrape(metricsUrl);
    expect(sampleOf(m, 'errand_smtp_outbound_queue', 'GAUGE', {})?.value).toBe('1');
    expect(counter(m, 'errand_smtp_outbound_recipients_total', { result: 'delivered' })).toBe(1);
    expect(counter(m, 'errand_smtp_outbound_recipients_total', { result: 'bounced' })).toBe(1);
    expect(counter(m, 'errand_smtp_outbound_recipients_total', { result: 'deferred' })).toBeGreaterThanOrEqual(1);

    deferring = false;
    await waitForEmail(d, sent.message_id, (e) => e.recipients.every((r: any) => r.status !== 'deferred'), 'the retry');
    sink.mailFrom = () => ({ code: 550, message: '5.7.1 Sender not allowed' });
    try {
      const refused = await send(d, { to: 'carol@example.test', subject: 'Refused', text: 'hi' });
      await waitForEmail(d, refused.message_id, (e) => e.recipients[0].status === 'failed', 'the refusal');
    } finally {
      sink.mailFrom = () => null;
    }

    m = await scrape(metricsUrl);
    expect(sampleOf(m, 'errand_smtp_outbound_queue', 'GAUGE', {})?.value).toBe('0');
    expect(counter(m, 'errand_smtp_outbound_recipients_total', { result: 'delivered' })).toBe(2);
    expect(counter(m, 'errand_smtp_outbound_recipients_total', { result: 'bounced' })).toBe(1);
    expect(counter(m, 'errand_smtp_outbound_recipients_total', { result: 'failed' })).toBe(1);
    const values = labelValues(m);
    expect(values.filter((v) => v.includes('@') || v.includes('.test') || /^[a-z]+_[0-9a-z]{26}$/.test(v))).toEqual([]);
  });
});
