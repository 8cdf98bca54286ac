import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Errand, WebhookSecretError, WebhookVerificationError, type WebhookEvent } from '../src/index.js';
import { startSdkDaemon, type SdkDaemon } from './sdk-daemon.js';

const ERRAND = fileURLToPath(new URL('../../../bin/errand', import.meta.url));

let daemon: SdkDaemon;
let errand: Errand;
let secret: string;
let receiver: Server;
const deliveries: { headers: IncomingHttpHeaders; body: string }[] = [];
let delivered: (() => void) | null = null;

beforeAll(async () => {
  daemon = await startSdkDaemon();
  errand = new Errand({ apiKey: daemon.key, baseUrl: daemon.url });
  const { stdout } = await promisify(execFile)(process.execPath, [ERRAND, '--home', daemon.home, '--json', 'webhooks', 'secret']);
  secret = (JSON.parse(stdout) as { secret: string }).secret;
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      deliveries.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end();
      delivered?.();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  receiver?.close();
  await daemon?.stop();
});

async function oneDelivery(): Promise<{ headers: IncomingHttpHeaders; body: string }> {
  if (deliveries.length === 0) await new Promise<void>((resolve) => (delivered = resolve));
  return deliveries[0]!;
}

describe('webhooks.verify', () => {
  it("S07 verifies a real delivery from the daemon and answers the typed event; refuses tampering, a wrong secret and an old timestamp", async () => {
    const callback = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const run = await errand.runs.createAndWait({ prompt: 'Say ok', callback_url: callback });
    const { headers, body } = await oneDelivery();
    expect(secret).toMatch(/^whsec_/);

    const event: WebhookEvent = errand.webhooks.verify(body, headers as Record<string, string>, secret);
    expect(event.event).toBe('run.completed');
    if (event.event !== 'run.completed') throw new Error('narrowed above');
    expect(event.data).toMatchObject({ task_id: run.task_id, status: 'succeeded', result: { ok: true } });
    // The same answer from the raw bytes and from a Headers object.
    expect(errand.webhooks.verify(Buffer.from(body), new Headers(headers as Record<string, string>), secret)).toEqual(event);

    const refused = (b: string, h: Record<string, string>, s: string, now?: Date) => {
      try {
        errand.webhooks.verify(b, h, s, now ? { now } : {});
        return null;
      } catch (error) {
        expect(error).toBeInstanceOf(WebhookVerificationError);
        return (error as WebhookVerificationError).code;
      }
    };
    const h = headers as Record<string, string>;
    expect(refused(body.replace('"succeeded"', '"failed"'), h, secret)).toBe('invalid_signature');
    expect(refused(body, h, `whsec_${Buffer.from('another secret of 32 bytes......').toString('base64')}`)).toBe('invalid_signature');
    expect(refused(body, h, secret, new Date((Number(h['webhook-timestamp']) + 301) * 1000))).toBe('timestamp_too_old');
    expect(refused(body, h, secret, new Date((Number(h['webhook-timestamp']) - 301) * 1000))).toBe('timestamp_too_new');
    expect(refused(body, { ...h, 'webhook-signature': '' }, secret)).toBe('missing_headers');
  });

  it('S07 agrees with the standardwebhooks library, a rotation window included', () => {
    const secrets = [`whsec_${Buffer.from('first secret, thirty-two bytes..').toString('base64')}`, `whsec_${Buffer.from('second secret, thirty-two bytes.').toString('base64')}`];
    const now = new Date();
    const body = JSON.stringify({ event: 'run.failed', data: { task_id: 'run_00000000000000000000000000' } });
    const signatures = secrets.map((s) => new Webhook(s).sign('msg_1', now, body)).join(' ');
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)), 'webhook-signature': signatures };
    for (const s of secrets) expect(errand.webhooks.verify(body, headers, s).event).toBe('run.failed');
    expect(() => new Webhook(secrets[0]!).verify(body, headers)).not.toThrow();
  });

  describe('a secret that is not a signing secret', () => {
    const body = JSON.stringify({ event: 'run.completed', data: {} });
    const now = new Date();
    const signedWith = (key: Buffer) => {
      const timestamp = String(Math.floor(now.getTime() / 1000));
      const signature = createHmac('sha256', key).update(`msg_1.${timestamp}.${body}`).digest('base64');
      return { 'webhook-id': 'msg_1', 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
    };
    const cases: [string, string | undefined, Buffer, string][] = [
      ['an unset variable', undefined, Buffer.alloc(0), 'is missing or empty'],
      ['an empty string', '', Buffer.alloc(0), 'is missing or empty'],
      ['the prefix alone', 'whsec_', Buffer.alloc(0), 'is empty after whsec_'],
      // Buffer.from(..., 'base64') skips what is not base64: these would have become guessable keys.
      ['a password', 'whsec_correct horse battery staple!', Buffer.from('correcthorsebatterystaple', 'base64'), 'is not base64 after whsec_'],
      ['an API key', 'whsec_ek_live_0123456789abcdef', Buffer.from('eklive0123456789abcdef', 'base64'), 'is not base64 after whsec_'],
      ['no prefix', Buffer.from('a secret of thirty-two bytes....').toString('base64'), Buffer.from('a secret of thirty-two bytes....'), 'does not start with whsec_'],
      ['a short key', `whsec_${Buffer.from('short').toString('base64')}`, Buffer.from('short'), 'is 5 bytes long'],
    ];
    it.each(cases)('refuses %s with WebhookSecretError before checking any signature, and never repeats it', (_name, given, key, problem) => {
      let thrown: unknown = null;
      try {
        errand.webhooks.verify(body, signedWith(key), given as string, { now });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(WebhookSecretError);
      expect(thrown).toBeInstanceOf(WebhookVerificationError);
      const error = thrown as WebhookSecretError;
      expect(error.code).toBe('invalid_secret');
      expect(error.message).toContain(problem);
      expect(error.message).toContain('whsec_ followed by base64');
      if (given && given.length > 'whsec_'.length) expect(error.message).not.toContain(given.slice('whsec_'.length));
      // Refused first: missing headers do not hide it.
      expect(() => errand.webhooks.verify(body, {}, given as string)).toThrow(WebhookSecretError);
    });

    it('accepts a key of 24 bytes, the shortest the standard allows', () => {
      const key = Buffer.from(Array.from({ length: 24 }, (_, i) => i));
      expect(errand.webhooks.verify(body, signedWith(key), `whsec_${key.toString('base64')}`, { now }).event).toBe('run.completed');
    });
  });
});
