/**
 * The outbound queue across a crash (issue 15, item 3): a daemon killed with SIGKILL while it is in the middle of
 * handing a message to the relay loses nothing and sends nothing twice once it is restarted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmtpSink } from '../../fixtures/smtp-sink.js';
import { startDaemon, type TestDaemon } from '../../fixtures/test-daemon.js';
import { configureIdentity, mailEnv, onOutboundQueue, send, waitForEmail } from '../harness.js';

let sink: SmtpSink;
let d: TestDaemon;

beforeAll(async () => {
  sink = await SmtpSink.start();
  // A short relay timeout keeps the dead daemon's lease on the message short (twice the timeout).
  d = await startDaemon({ env: mailEnv({ sink, env: { ERRAND_MAIL_SMTP_TIMEOUT_S: '1' } }) });
  await configureIdentity(d, {});
});

afterAll(async () => {
  await d?.cleanup();
  await sink?.close();
});

describe('a SIGKILL between the 202 and the delivery', () => {
  it('loses nothing and sends nothing twice', async () => {
    let release!: () => void;
    sink.mailFrom = () => new Promise((resolve) => (release = () => resolve(null)));
    const result = await send(d, { to: ['one@example.test', 'two@example.test'], subject: 'Survives', text: 'exactly once', metadata: { n: 1 } });
    expect(result.status).toBe('sent');
    // The daemon has opened the SMTP transaction and waits for the relay's answer to MAIL FROM.
    const deadline = Date.now() + 10_000;
    while (sink.mailFromCount === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(sink.mailFromCount).toBe(1);
    await d.kill();
    release();
    sink.mailFrom = () => null;
    expect(sink.messages).toHaveLength(0);

    await d.restart();
    const email = await waitForEmail(d, result.message_id, (e) => e.recipients.every((r: any) => r.status === 'delivered'), 'delivery after the restart');
    expect(email.status).toBe('sent');
    // Off the queue with its delivery: no worker, this daemon's or a lease left by the killed one, sends it again.
    expect(onOutboundQueue(d, result.message_id)).toBe(false);
    expect(sink.messages).toHaveLength(1);
    expect(sink.messages[0]!.envelope.to.sort()).toEqual(['one@example.test', 'two@example.test']);
    expect(sink.messages[0]!.raw.toString()).toContain(`Message-ID: <${result.message_id}@`);
  });
});
