/**
 * Mail throughput on loopback:
 *   npm run build && npx tsx bench/mail.ts [replies=1000] [connections=8] [rounds=3] [sends=500]
 *
 * Inbound: replies per second that the daemon's SMTP server receives, parses (mailparser, quoted history stripped),
 * authenticates (SPF, DKIM and DMARC through a loopback DNS server), correlates (by token), stores and turns into an
 * outbox webhook and an event, all before it answers 250; beside a bare smtp-server (in a child process too) that
 * accepts each message and discards it, measured in the same interleaved rounds, with the same client: nodemailer's
 * pooled SMTP transport signing every message with DKIM. The ratio of the medians is what counts (issue 15:
 * >= 0.5 of the bare server, and >= 200 replies/s). Webhooks are only enqueued: the first delivery attempt is an
 * hour away (`webhooks.retry_schedule_s`), so delivering them is not part of what is measured.
 *
 * Outbound: sends per second from POST /v1/emails (202, queued) to the last message accepted by a loopback SMTP
 * sink (smtp-server, in this process), through the durable queue and the pooled relay connection.
 */
import type { ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import nodemailer from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import { LoopbackDns } from '../test/fixtures/dns-server.js';
import { startChild, stopChild } from './child-process.js';
import { keyOf, startErrandd, stopErrandd, type Errandd } from './errandd.js';
const RELAY = 'relay.bench';
const SENDER = 'sender.bench';

const BARE_SMTP = `
import { SMTPServer } from 'smtp-server';
const server = new SMTPServer({
  authOptional: true, disabledCommands: ['AUTH', 'STARTTLS'], logger: false, size: 25 * 1024 * 1024,
  onData(stream, _session, callback) { stream.on('data', () => {}); stream.on('end', () => callback()); },
});
server.listen(0, '127.0.0.1', () => process.stdout.write('listening on ' + server.server.address().port + '\\n'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

async function api(d: Errandd, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${d.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${keyOf(d)}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = await res.json();
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(json)}`);
  return json;
}

/** Sends `count` replies over `connections` pooled connections; answers replies per second. */
async function blast(port: number, count: number, connections: number, to: () => string, dkimKey: string, inReplyTo: string): Promise<number> {
  const client = nodemailer.createTransport({
    pool: true,
    maxConnections: connections,
    maxMessages: Infinity,
    host: '127.0.0.1',
    port,
    secure: false,
    ignoreTLS: true,
    dkim: { domainName: SENDER, keySelector: 's1', privateKey: dkimKey },
  });
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      await client.sendMail({
        from: `Customer <customer@${SENDER}>`,
        to: to(),
        subject: `Re: Your order ${i}`,
        inReplyTo,
        text: `Thanks, that works for me.\n\nOn Mon, Nov 23, 2026 at 9:00 AM Shop <shop@${RELAY}> wrote:\n> Your order ${i} has shipped.\n> Reply to this message with any question.\n`,
      });
    }
  };
  await Promise.all(Array.from({ length: connections * 2 }, worker));
  const elapsed = (performance.now() - started) / 1000;
  client.close();
  return count / elapsed;
}

/** User plus system CPU time of a process (all its threads) in ms, from /proc (clock ticks are 10 ms on Linux). */
function cpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** Messages per second, and the server's CPU time per message. */
async function measure(server: ChildProcess, run: () => Promise<number>, count: number): Promise<{ perSecond: number; cpuMs: number }> {
  const before = cpuMs(server.pid);
  const perSecond = await run();
  return { perSecond, cpuMs: (cpuMs(server.pid) - before) / count };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

interface RoundResult {
  bare: number;
  daemon: number;
  bareCpuMs: number;
  daemonCpuMs: number;
}

export interface MailBenchResult {
  rounds: RoundResult[];
  bareRepliesPerSecond: number;
  daemonRepliesPerSecond: number;
  ratio: number;
  sendsPerSecond: number;
}

export async function runMailBench(replies = 1000, connections = 8, rounds = 3, sends = 500): Promise<MailBenchResult> {
  const dns = await LoopbackDns.start();
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
  const dkimKey = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  dns.set(SENDER, 'TXT', ['v=spf1 ip4:127.0.0.1 -all']);
  dns.set(`s1._domainkey.${SENDER}`, 'TXT', [`v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`]);
  dns.set(`_dmarc.${SENDER}`, 'TXT', ['v=DMARC1; p=reject']);

  let received = 0;
  const sink = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        received++;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  const sinkPort = (sink.server.address() as AddressInfo).port;

  const bare = await startChild(['--input-type=module', '-e', BARE_SMTP], process.env);
  const barePort = Number(bare.listening);
  const daemon = await startErrandd({
    dev: true,
    smtp: true,
    env: {
      ERRAND_LOG_LEVEL: 'warn',
      ERRAND_MAIL_RELAY_DOMAIN: RELAY,
      ERRAND_MAIL_INBOUND_PORT: '0',
      ERRAND_DNS_SERVERS: dns.server,
      ERRAND_MAIL_SMTP_URL: `smtp://127.0.0.1:${sinkPort}`,
      ERRAND_MAIL_INBOUND_MESSAGES_PER_MINUTE: '10000000',
      ERRAND_MAIL_INBOUND_CONNECTIONS_PER_IP: String(connections * 4),
      ERRAND_MAIL_DAILY_SEND_CAP: '100000000',
      ERRAND_WEBHOOKS_RETRY_SCHEDULE_S: '3600',
    },
  });
  const smtpPort = daemon.smtpPort!;
  try {
    await api(daemon, 'POST', '/v1/emails/identity', { username: 'shop', callback_url: 'http://127.0.0.1:9/hook' });
    // One send whose correlation address the replies go to.
    const sent = await api(daemon, 'POST', '/v1/emails', { to: `customer@${SENDER}`, subject: 'Your order', text: 'It has shipped.', metadata: { order: 1 } });
    const replyTo = sent.reply_to.address as string;
    const inReplyTo = `<${sent.message_id}@${RELAY}>`;

    const result: RoundResult[] = [];
    // A first short pass of each warms both servers' code up.
    await blast(barePort, Math.min(200, replies), connections, () => replyTo, dkimKey, inReplyTo);
    await blast(smtpPort, Math.min(200, replies), connections, () => replyTo, dkimKey, inReplyTo);
    for (let i = 0; i < rounds; i++) {
      const b = await measure(bare.proc, () => blast(barePort, replies, connections, () => replyTo, dkimKey, inReplyTo), replies);
      const dd = await measure(daemon.proc, () => blast(smtpPort, replies, connections, () => replyTo, dkimKey, inReplyTo), replies);
      result.push({ bare: b.perSecond, daemon: dd.perSecond, bareCpuMs: b.cpuMs, daemonCpuMs: dd.cpuMs });
    }

    // Outbound: queue `sends` messages as fast as the API takes them, then wait for the sink to have them all.
    const before = received;
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < sends) {
          const i = next++;
          await api(daemon, 'POST', '/v1/emails', { to: `buyer${i}@${SENDER}`, subject: `Receipt ${i}`, body_markdown: `Thanks for order **${i}**.` });
        }
      }),
    );
    while (received - before < sends) await new Promise((r) => setTimeout(r, 5));
    const sendsPerSecond = sends / ((performance.now() - started) / 1000);

    const bareMedian = median(result.map((r) => r.bare));
    const daemonMedian = median(result.map((r) => r.daemon));
    return { rounds: result, bareRepliesPerSecond: bareMedian, daemonRepliesPerSecond: daemonMedian, ratio: median(result.map((r) => r.daemon / r.bare)), sendsPerSecond };
  } finally {
    await stopErrandd(daemon);
    await stopChild(bare);
    await new Promise<void>((resolve) => sink.close(() => resolve()));
    await dns.close();
  }
}

export function printMailBench(r: MailBenchResult, replies: number, connections: number): void {
  console.log(`mail bench: ${r.rounds.length} interleaved rounds of ${replies} DKIM-signed replies over ${connections} pooled connections, loopback`);
  r.rounds.forEach((round, i) => {
    console.log(
      `  round ${i + 1}: bare smtp-server ${round.bare.toFixed(0)} msg/s (${round.bareCpuMs.toFixed(2)} CPU ms each), ` +
        `daemon ${round.daemon.toFixed(0)} replies/s (${round.daemonCpuMs.toFixed(2)} CPU ms each): ${((100 * round.daemon) / round.bare).toFixed(1)}%`,
    );
  });
  console.log(`inbound (medians): daemon ${r.daemonRepliesPerSecond.toFixed(0)} replies/s, bare ${r.bareRepliesPerSecond.toFixed(0)} msg/s, ratio ${r.ratio.toFixed(2)} (target >= 0.50 and >= 200 replies/s)`);
  console.log(`CPU per message (medians, all threads): daemon ${median(r.rounds.map((x) => x.daemonCpuMs)).toFixed(2)} ms, bare ${median(r.rounds.map((x) => x.bareCpuMs)).toFixed(2)} ms`);
  console.log(`outbound: ${r.sendsPerSecond.toFixed(0)} sends/s from POST /v1/emails to the loopback sink`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const replies = Number(process.argv[2] ?? 1000);
  const connections = Number(process.argv[3] ?? 8);
  const rounds = Number(process.argv[4] ?? 3);
  const sends = Number(process.argv[5] ?? 500);
  printMailBench(await runMailBench(replies, connections, rounds, sends), replies, connections);
}
