/**
 * The inbound SMTP server (issue 15, items 4-5) of the real, compiled daemon: replies sent to it with nodemailer
 * and with swaks, matched to their sends, turned into `email.received` webhooks verified with standardwebhooks
 * under the identity's webhook_secret, with SPF/DKIM/DMARC verdicts resolved through a loopback DNS server.
 */
import { createHash, generateKeyPairSync } from 'node:crypto';
import { execFile, execFileSync } from 'node:child_process';
import { connect } from 'node:net';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventLog } from '../../../src/event-log/event-log.js';
import { EventBus } from '../../../src/events.js';
import { systemClock } from '../../../src/clock.js';
import { LoopbackDns } from '../../fixtures/dns-server.js';
import { SmtpSink } from '../../fixtures/smtp-sink.js';
import { startDaemon, type TestDaemon } from '../../fixtures/test-daemon.js';
import { tempDir } from '../../fixtures/temp-dir.js';
import { signingSecretOf, WebhookReceiver, type ReceivedDelivery } from '../../fixtures/webhook-receiver.js';
import { withStore } from '../../api/harness.js';
import { configureIdentity, mailEnv, RELAY, send, smtpPortOf } from '../harness.js';

const SENDER_DOMAIN = 'sender.test';
/** The caller's metadata as it writes it: member order, a number's spelling and escapes must come back unchanged. */
const METADATA_JSON = '{"b":1,"2":"two","1":1.50,"nested":{"z":[true,null]},"e":"caf\\u00e9 \\"quoted\\""}';

let sink: SmtpSink;
let dns: LoopbackDns;
let receiver: WebhookReceiver;
let d: TestDaemon;
let port: number;
let identitySecret: string;
let dkimKey: string;

beforeAll(async () => {
  sink = await SmtpSink.start();
  dns = await LoopbackDns.start();
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
  dkimKey = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  dns.set(SENDER_DOMAIN, 'TXT', ['v=spf1 ip4:127.0.0.1 -all']);
  dns.set(`s1._domainkey.${SENDER_DOMAIN}`, 'TXT', [`v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`]);
  dns.set(`_dmarc.${SENDER_DOMAIN}`, 'TXT', ['v=DMARC1; p=reject']);
  d = await startDaemon({ env: mailEnv({ sink, env: { ERRAND_DNS_SERVERS: dns.server, ERRAND_MAIL_MAX_MESSAGE_BYTES: String(48 * 1024 * 1024) } }) });
  port = await smtpPortOf(d);
  receiver = await WebhookReceiver.start([]);
  identitySecret = (await configureIdentity(d, { callback_url: receiver.url('/mail') })).webhook_secret;
  receiver.secrets = [identitySecret];
});

afterAll(async () => {
  await d?.cleanup();
  await receiver?.close();
  await sink?.close();
  await dns?.close();
});

/** Sends a message the way the rest of the world does: nodemailer's SMTP client, signing with the sender's DKIM key. */
async function sendIn(message: Parameters<ReturnType<typeof nodemailer.createTransport>['sendMail']>[0]): Promise<unknown> {
  const client = nodemailer.createTransport({
    host: '127.0.0.1',
    port,
    secure: false,
    ignoreTLS: true,
    dkim: { domainName: SENDER_DOMAIN, keySelector: 's1', privateKey: dkimKey },
  });
  try {
    return await client.sendMail(message);
  } finally {
    client.close();
  }
}

function swaks(args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile('swaks', ['--server', `127.0.0.1:${port}`, '--helo', 'client.sender.test', '--timeout', '20', ...args], { maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ code: err === null ? 0 : ((err as { code?: number }).code ?? 1), output: `${stdout}${stderr}` });
    });
  });
}

async function deliveryFor(messageId: string | null, predicate: (d: ReceivedDelivery) => boolean = () => true): Promise<ReceivedDelivery> {
  return receiver.waitFor((ds) => ds.find((x) => x.json?.event === 'email.received' && (messageId === null || x.json.data.in_reply_to === messageId) && predicate(x)), `email.received for ${messageId}`);
}

/** Sends a message through the API with METADATA_JSON written verbatim into the body. */
async function sendWithRawMetadata(subject: string): Promise<any> {
  const raw = `{"to":"client@${SENDER_DOMAIN}","subject":${JSON.stringify(subject)},"text":"Can we meet on Thursday?","metadata":${METADATA_JSON}}`;
  const res = await d.api('POST', '/v1/emails', undefined, { raw, headers: { 'content-type': 'application/json' } });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body;
}

describe('a reply to the correlation address', () => {
  it('becomes an email.received webhook, signed with the identity\'s secret, with the metadata echoed byte for byte', async () => {
    const sent = await sendWithRawMetadata('Meeting');
    const [outgoing] = (await sink.waitFor(1)).filter((m) => m.raw.toString().includes(sent.message_id));
    const messageIdHeader = /^Message-ID: (<[^>]+>)/im.exec(outgoing!.raw.toString())![1]!;
    await sendIn({
      from: `Client Person <client@${SENDER_DOMAIN}>`,
      to: sent.reply_to.address,
      subject: 'Re: Meeting',
      inReplyTo: messageIdHeader,
      text: `Yes, Thursday works.\n\nOn Mon, Nov 23, 2026 at 9:00 AM Errand <${sent.from_address}> wrote:\n> Can we meet on Thursday?\n`,
    });
    const delivery = await deliveryFor(sent.message_id);
    expect(delivery.verifiedWith).toBe(identitySecret);
    expect(delivery.verifiedWith).not.toBe(signingSecretOf(d.home, d.orgId));
    expect(delivery.body).toContain(`"metadata":${METADATA_JSON}}`);
    const data = delivery.json.data;
    expect(data).toMatchObject({
      message_id: expect.stringMatching(/^msg_/),
      in_reply_to: sent.message_id,
      correlation_token: sent.correlation_token,
      from: `client@${SENDER_DOMAIN}`,
      from_name: 'Client Person',
      to: [sent.reply_to.address],
      subject: 'Re: Meeting',
      reply_text: 'Yes, Thursday works.',
      html: null,
      kind: 'reply',
      inbox_id: null,
      attachments: [],
      truncated: false,
      auth: { spf: 'pass', dkim: 'pass', dmarc: 'pass', dkim_domains: [SENDER_DOMAIN] },
    });
    expect(data.text).toContain('> Can we meet on Thursday?');
    expect(data.metadata).toEqual(JSON.parse(METADATA_JSON));
    expect(Object.keys(data.metadata)).toEqual(Object.keys(JSON.parse(METADATA_JSON)));

    const stored = await d.api('GET', `/v1/emails/received/${data.message_id}`);
    expect(stored.status).toBe(200);
    expect(stored.body).toMatchObject({ message_id: data.message_id, in_reply_to: sent.message_id, reply_text: 'Yes, Thursday works.', metadata: JSON.parse(METADATA_JSON) });
    const events = withStore(d, (store) => new EventLog({ store: store.events, clock: systemClock, events: new EventBus() }).orgEvents(d.orgId, 0, 1000));
    const logged = events.find((e) => e.type === 'email.received' && (e.data as any).message_id === data.message_id);
    expect(logged?.data).toMatchObject({ in_reply_to: sent.message_id, reply_text: 'Yes, Thursday works.' });
    expect(logged?.data).not.toHaveProperty('text');
    expect(JSON.stringify(events)).not.toContain(identitySecret);
  });

  it('is matched by In-Reply-To when the client replied to the identity address, sent with swaks', async () => {
    const sent = await send(d, { to: `someone@${SENDER_DOMAIN}`, subject: 'Invoice', text: 'Attached.', metadata: { invoice: 'INV-9' } });
    const outgoing = (await sink.waitFor(2)).find((m) => m.raw.toString().includes(sent.message_id))!;
    const messageIdHeader = /^Message-ID: (<[^>]+>)/im.exec(outgoing.raw.toString())![1]!;
    const result = await swaks([
      '--from', 'someone@other.test',
      '--to', `default@${RELAY}`,
      '--header', 'Subject: Re: Invoice',
      '--header', `In-Reply-To: ${messageIdHeader}`,
      '--header', `References: <unrelated@elsewhere.test> ${messageIdHeader}`,
      '--body', 'Paid, thanks.',
    ]);
    expect(result.code, result.output).toBe(0);
    const delivery = await deliveryFor(sent.message_id);
    expect(delivery.verifiedWith).toBe(identitySecret);
    expect(delivery.json.data).toMatchObject({ in_reply_to: sent.message_id, correlation_token: sent.correlation_token, from: 'someone@other.test', metadata: { invoice: 'INV-9' }, auth: { spf: 'none' } });
    expect(delivery.json.data.in_reply_to_header).toBe(messageIdHeader);
  });

  it('to the identity address without references arrives as new mail, with no metadata', async () => {
    const result = await swaks(['--from', 'stranger@other.test', '--to', `default@${RELAY}`, '--header', 'Subject: Hello there', '--body', 'A new conversation.']);
    expect(result.code, result.output).toBe(0);
    const delivery = await deliveryFor(null, (x) => x.json.data.subject === 'Hello there');
    expect(delivery.json.data).toMatchObject({ in_reply_to: null, correlation_token: null, kind: 'message', metadata: null, reply_text: 'A new conversation.' });
  });
});

describe('mail the installation does not receive', () => {
  it('is refused at RCPT with 550: forged and unknown tokens, unknown users, other domains', async () => {
    const sent = await send(d, { to: `x@${SENDER_DOMAIN}`, subject: 'Token', text: 'x' });
    const genuine = sent.correlation_token as string;
    const forged = genuine.slice(0, -1) + (genuine.endsWith('a') ? 'b' : 'a');
    for (const to of [`default+${forged}@${RELAY}`, `default+${'0'.repeat(29)}@${RELAY}`, `nobody@${RELAY}`, `run-${'a'.repeat(24)}@${RELAY}`, `default@elsewhere.test`]) {
      const result = await swaks(['--from', 'spammer@other.test', '--to', to, '--body', 'x']);
      expect(result.code, `${to}: ${result.output}`).not.toBe(0);
      expect(result.output, to).toMatch(/<\*\* 55\d /);
    }
    await expect(sendIn({ from: `client@${SENDER_DOMAIN}`, to: `default+${forged}@${RELAY}`, subject: 'x', text: 'x' })).rejects.toMatchObject({ responseCode: 550 });
    // The genuine token still works, in any case.
    const ok = await swaks(['--from', 'client@other.test', '--to', `DEFAULT+${genuine.toUpperCase()}@${RELAY}`, '--body', 'case does not matter']);
    expect(ok.code, ok.output).toBe(0);
  });
});

describe('the name of a connecting client', () => {
  it('is looked up through dns.servers, not the system resolver (issue 21, item 8)', async () => {
    dns.set('1.0.0.127.in-addr.arpa', 'PTR', ['client.sender.test']);
    const asked = await dns.questionsDuring(async () => {
      const socket = connect(port, '127.0.0.1');
      try {
        const greeting = await new Promise<string>((resolve, reject) => {
          socket.once('data', (chunk: Buffer) => resolve(chunk.toString()));
          socket.once('error', reject);
        });
        expect(greeting).toMatch(/^220 /);
      } finally {
        socket.end('QUIT\r\n');
      }
    });
    expect(asked).toContain('PTR 1.0.0.127.in-addr.arpa');
  });
});

describe('attachments', () => {
  it('of 30 MB arrive as a signed download link in a small, complete webhook', async () => {
    const sent = await send(d, { to: `big@${SENDER_DOMAIN}`, subject: 'Send the file', text: 'please' });
    const file = Buffer.alloc(30 * 1024 * 1024);
    for (let i = 0; i < file.length; i += 4096) file.writeUInt32BE(i, i);
    await sendIn({
      from: `big@${SENDER_DOMAIN}`,
      to: sent.reply_to.address,
      subject: 'Re: Send the file',
      text: 'Here it is.',
      attachments: [{ filename: 'data.bin', content: file, contentType: 'application/octet-stream' }, { filename: 'note.html', content: '<script>alert(1)</script>', contentType: 'text/html' }],
    });
    const delivery = await deliveryFor(sent.message_id);
    expect(delivery.body.length).toBeLessThan(16 * 1024);
    const [bin, html] = delivery.json.data.attachments;
    expect(bin).toMatchObject({ filename: 'data.bin', content_type: 'application/octet-stream', size: file.length, url: expect.stringMatching(/\/v1\/emails\/attachments\/att_\w+\?expires=\d+&sig=/) });
    const download = await fetch(bin.url);
    expect(download.status).toBe(200);
    expect(createHash('sha256').update(Buffer.from(await download.arrayBuffer())).digest('hex')).toBe(createHash('sha256').update(file).digest('hex'));
    const page = await fetch(html.url);
    expect(page.headers.get('content-type')).toBe('application/octet-stream');
    expect(page.headers.get('content-disposition')).toMatch(/^attachment; filename="note.html"/);
    const tampered = await fetch(bin.url.replace(/sig=[^&]+/, 'sig=AAAA'));
    expect(tampered.status).toBe(403);
  });
});

describe('bad input on the wire', () => {
  it('takes malformed MIME and 8-bit headers without falling over', async () => {
    const raw = Buffer.concat([
      Buffer.from('From: =?utf-8?B?broken <x@other.test>\r\nTo: default@relay.test\r\nSubject: caf'),
      Buffer.from([0xe9, 0xff, 0xfe]),
      Buffer.from('\r\nContent-Type: multipart/mixed; boundary="never-closed"\r\nContent-Transfer-Encoding: base64\r\n\r\n--never-closed\r\nContent-Type: text/plain\r\n\r\n!!!not base64!!!\r\n'),
    ]);
    const client = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
    try {
      await client.sendMail({ envelope: { from: 'x@other.test', to: [`default@${RELAY}`] }, raw });
    } finally {
      client.close();
    }
    const result = await swaks(['--from', 'y@other.test', '--to', `default@${RELAY}`, '--data', 'Subject: \xe4\xf6\xfc 8bit\nX-Odd: \x01\x02\n\nbody with 8-bit \xe9\n']);
    expect(result.code, result.output).toBe(0);
    expect((await d.api('GET', '/healthz', undefined, { key: null })).status).toBe(200);
    await receiver.waitFor((ds) => ds.some((x) => x.json?.data?.from === 'y@other.test'), 'the 8-bit message');
  });
});

describe('a daemon with tight inbound limits and a certificate', () => {
  let small: TestDaemon;
  let smallPort: number;
  const certDir = tempDir('errand-tls-');

  beforeAll(async () => {
    const cert = join(certDir.path, 'cert.pem');
    const key = join(certDir.path, 'key.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2', '-subj', `/CN=${RELAY}`, '-keyout', key, '-out', cert], { stdio: 'ignore' });
    small = await startDaemon({
      env: mailEnv({
        env: {
          ERRAND_DNS_SERVERS: dns.server,
          ERRAND_MAIL_MAX_MESSAGE_BYTES: '65536',
          ERRAND_MAIL_INBOUND_MESSAGES_PER_MINUTE: '4',
          ERRAND_MAIL_INBOUND_TLS_CERT_PATH: cert,
          ERRAND_MAIL_INBOUND_TLS_KEY_PATH: key,
        },
      }),
    });
    smallPort = await smtpPortOf(small);
    await configureIdentity(small, {});
  });

  afterAll(async () => {
    await small?.cleanup();
    certDir.remove();
  });

  it('offers STARTTLS only when a certificate is configured', async () => {
    const over = (serverPort: number) => {
      const client = nodemailer.createTransport({ host: '127.0.0.1', port: serverPort, secure: false, requireTLS: true, tls: { rejectUnauthorized: false } });
      return client.sendMail({ from: 'a@other.test', to: `default@${RELAY}`, subject: 'over TLS', text: 'x' }).finally(() => client.close());
    };
    await expect(over(smallPort)).resolves.toMatchObject({ accepted: [`default@${RELAY}`] });
    // The first daemon has no certificate, so a client that insists on TLS gets none.
    await expect(over(port)).rejects.toMatchObject({ code: 'ETLS' });
  });

  it('answers 552 to a message over mail.max_message_bytes, and 451 once a client passes its message rate', async () => {
    const run = (args: string[]) =>
      new Promise<{ code: number; output: string }>((resolve) =>
        execFile('swaks', ['--server', `127.0.0.1:${smallPort}`, '--from', 'a@other.test', '--to', `default@${RELAY}`, ...args], (err, stdout, stderr) =>
          resolve({ code: err === null ? 0 : ((err as { code?: number }).code ?? 1), output: `${stdout}${stderr}` }),
        ),
      );
    const big = await run(['--body', 'x'.repeat(100_000)]);
    expect(big.output).toMatch(/<\*\* 552 /);
    expect((await run(['--body', 'one'])).code).toBe(0);
    expect((await run(['--body', 'two'])).code).toBe(0);
    const limited = await run(['--body', 'four']);
    expect(limited.output).toMatch(/<\*\* 451 /);
  });
});
