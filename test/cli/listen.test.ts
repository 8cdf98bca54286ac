import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../fixtures/temp-dir.js';
import { createRun, startEngine, type EngineHarness } from '../engine/harness.js';
import { toolUse } from '../fixtures/scripted-anthropic.js';
import { SmtpSink } from '../fixtures/smtp-sink.js';
import { rotateSigningSecret, signingSecretOf, verifiesAlone, WebhookReceiver } from '../fixtures/webhook-receiver.js';
import { configureIdentity, mailIn, RELAY, smtpPortOf } from '../mail/harness.js';
import { runCli, spawnCli } from './run-cli.js';
import { escapeRegExp } from '../../src/text/escape-regexp.js';

let h: EngineHarness;
let sink: SmtpSink;
let receiver: WebhookReceiver;
const env = () => ({ ERRAND_API_URL: h.daemon.url, ERRAND_API_KEY: h.daemon.key });

beforeAll(async () => {
  sink = await SmtpSink.start();
  h = await startEngine({ env: { ERRAND_MAIL_RELAY_DOMAIN: RELAY, ERRAND_MAIL_INBOUND_PORT: '0', ERRAND_MAIL_SMTP_URL: sink.url() } });
  receiver = await WebhookReceiver.start([signingSecretOf(h.daemon.home, h.daemon.orgId)]);
});
afterAll(async () => {
  await receiver?.close();
  await h?.close();
  await sink?.close();
});

/** How listen names a secret: its prefix and its last four characters. */
function hintOf(secret: string): string {
  return `whsec_…${secret.slice(-4)}`;
}

describe('errand listen --forward-to', () => {
  it("forwards the organisation's webhook events to a local server, signed with its secret (Standard Webhooks)", async () => {
    const listen = spawnCli(['--home', h.daemon.home, 'listen', '--forward-to', receiver.url('/local'), '--limit', '2', '--json'], { env: env() });
    await listen.waitFor(({ stderr }) => stderr.includes('ready: forwarding run.needs_human, run.human_answered, run.completed, run.failed, run.cancelled'));

    h.model.script([toolUse('finish', { result: { answer: 1 }, confidence: 'high' }), toolUse('finish', { result: null, failure_reason: 'not_found', failure_detail: 'no such page' })]);
    const succeeded = await createRun(h.daemon, { prompt: 'One' });
    await receiver.waitFor((ds) => ds.length >= 1, 'the first forwarded event');
    const failed = await createRun(h.daemon, { prompt: 'Two' });
    expect(await listen.exited).toBe(0);

    const delivered = receiver.at('/local');
    expect(receiver.unverified()).toEqual([]);
    expect(delivered.map((d) => d.json)).toEqual([
      { event: 'run.completed', livemode: true, data: expect.objectContaining({ task_id: succeeded, status: 'succeeded', result: { answer: 1 } }) },
      { event: 'run.failed', livemode: true, data: expect.objectContaining({ task_id: failed, status: 'failed', failure_reason: 'not_found' }) },
    ]);
    const lines = listen.stdout().trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toEqual([
      expect.objectContaining({ type: 'run.completed', run_id: succeeded, status_code: 200, error: null, webhook_id: delivered[0]!.id }),
      expect.objectContaining({ type: 'run.failed', run_id: failed, status_code: 200, error: null, webhook_id: delivered[1]!.id }),
    ]);
  });

  it("forwards every type with --events '*', and says when the receiver does not answer 2xx", async () => {
    receiver.respond = (d) => (d.path === '/down' ? { status: 503 } : { status: 200 });
    const listen = spawnCli(['--home', h.daemon.home, 'listen', '--forward-to', receiver.url('/down'), '--events', '*', '--limit', '1'], { env: env() });
    await listen.waitFor(({ stderr }) => stderr.includes('ready: forwarding every event'));
    h.model.script([toolUse('finish', { result: { answer: 2 }, confidence: 'high' })]);
    const id = await createRun(h.daemon, { prompt: 'Three' });
    expect(await listen.exited).toBe(0);
    expect(receiver.at('/down')[0]!.json).toMatchObject({ event: 'run.status', data: { run_id: id, to: 'queued' } });
    expect(listen.stdout()).toMatch(new RegExp(`run\\.status\\s+${id}\\s+-> 503`));
  });

  it('forwards what production sends: the same bytes and webhook-id, signed with the secret production signs with', async () => {
    const orgSecret = signingSecretOf(h.daemon.home, h.daemon.orgId);
    const identity = await configureIdentity(h.daemon, { callback_url: receiver.url('/prod-mail') });
    receiver.secrets.push(identity.webhook_secret);
    // Knows both secrets, and records which one verified each request.
    const local = await WebhookReceiver.start([orgSecret, identity.webhook_secret]);
    try {
      const listen = spawnCli(['--home', h.daemon.home, 'listen', '--forward-to', local.url('/local'), '--limit', '2', '--json'], { env: env() });
      // Said once it is ready, one line per secret: which events it signs, and whose it is.
      await listen.waitFor(({ stderr }) => stderr.includes('ready: forwarding') && stderr.includes('email.complained: signed with'));
      expect(listen.stderr()).toMatch(new RegExp(`connection\\.expired(, [a-z_.]+)*: signed with ${escapeRegExp(hintOf(orgSecret))}, the organisation's secret`));
      expect(listen.stderr()).toContain(`email.received, email.bounced, email.complained: signed with ${hintOf(identity.webhook_secret)}, the identity's webhook_secret`);

      h.model.script([toolUse('finish', { result: { answer: 4 }, confidence: 'high' })]);
      await createRun(h.daemon, { prompt: 'Four', callback_url: receiver.url('/prod-runs') });
      await receiver.waitFor((ds) => ds.some((d) => d.path === '/prod-runs'), 'the run webhook');
      // The sender's metadata, spaced as it wrote it: the webhook carries it byte for byte.
      const sent = await h.daemon.api('POST', '/v1/emails', undefined, {
        headers: { 'content-type': 'application/json' },
        raw: '{"to": ["ada@example.test"], "subject": "Hello", "text": "hi", "metadata": {"campaign" :  "nov"}}',
      });
      expect(sent.status, JSON.stringify(sent.body)).toBe(202);
      await sink.waitFor(1);
      const correlation = sent.body.reply_to.address as string;
      await mailIn(await smtpPortOf(h.daemon), { from: 'ada@example.test', to: correlation }, `From: Ada <ada@example.test>\nTo: ${correlation}\nSubject: Re: Hello\n\nThanks, that works.\n`);
      expect(await listen.exited).toBe(0);

      const production = [receiver.at('/prod-runs')[0]!, await receiver.waitFor((ds) => ds.find((d) => d.path === '/prod-mail'), 'the email.received webhook')];
      const forwarded = local.at('/local');
      expect(forwarded.map((d) => d.json?.event)).toEqual(['run.completed', 'email.received']);
      expect(local.unverified()).toEqual([]);
      expect(forwarded.map((d) => d.body)).toEqual(production.map((d) => d.body));
      expect(forwarded.map((d) => d.id)).toEqual(production.map((d) => d.id));
      expect(forwarded.map((d) => d.verifiedWith)).toEqual([orgSecret, identity.webhook_secret]);
      expect(forwarded[1]!.json.data).toMatchObject({ text: expect.stringContaining('Thanks, that works.'), html: null, metadata: { campaign: 'nov' } });
      expect(forwarded[1]!.body).toContain('"metadata":{"campaign" :  "nov"}');
      const lines = listen.stdout().trim().split('\n').map((l) => JSON.parse(l));
      expect(lines.map((l) => [l.webhook_id, l.signed_with])).toEqual([
        [production[0]!.id, 'org'],
        [production[1]!.id, 'email'],
      ]);
    } finally {
      await local.close();
    }
  });

  it('follows a rotation while it listens: it signs with both secrets, as the delivery worker does, and says so', async () => {
    const before = signingSecretOf(h.daemon.home, h.daemon.orgId);
    const listen = spawnCli(['--home', h.daemon.home, 'listen', '--forward-to', receiver.url('/rotated'), '--events', 'run.completed', '--limit', '1'], { env: env() });
    await listen.waitFor(({ stderr }) => stderr.includes(`run.completed: signed with ${hintOf(before)}`));
    const after = rotateSigningSecret(h.daemon.home, h.daemon.orgId).secret;
    h.model.script([toolUse('finish', { result: { answer: 5 }, confidence: 'high' })]);
    await createRun(h.daemon, { prompt: 'Five' });
    expect(await listen.exited).toBe(0);

    expect(listen.stderr()).toContain(`run.completed: now signed with ${hintOf(after)}, the organisation's secret (errand webhooks secret); the previous one, ${hintOf(before)}, signs beside it`);
    const [forwarded] = receiver.at('/rotated');
    const signatures = String(forwarded!.headers['webhook-signature']).split(' ');
    expect(signatures).toHaveLength(2);
    expect(verifiesAlone(forwarded!, signatures[0]!, after)).toBe(true);
    expect(verifiesAlone(forwarded!, signatures[1]!, before)).toBe(true);
  });

  it('refuses, naming the data directory, when it does not hold the API key (it signs with the secret kept there)', async () => {
    const elsewhere = tempDir('errand-listen-');
    try {
      const res = await runCli(['--home', elsewhere.path, 'listen', '--forward-to', receiver.url(), '--json'], { env: env() });
      expect(res.code).toBe(1);
      expect(res.stdout).toBe('');
      expect(JSON.parse(res.stderr)).toMatchObject({ error: { type: 'invalid_request_error', code: 'key_not_in_data_directory', message: expect.stringContaining(elsewhere.path) } });
    } finally {
      elsewhere.remove();
    }
  });

  it('treats a --forward-to that is not a URL as a usage error (exit 2)', async () => {
    const res = await runCli(['--home', h.daemon.home, 'listen', '--forward-to', 'localhost:3000'], { env: env() });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("--forward-to must be an http:// or https:// URL, got 'localhost:3000'");
  });
});
