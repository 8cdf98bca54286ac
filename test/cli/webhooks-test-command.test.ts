import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventSpec } from '../../src/event-log/event-catalogue.js';
import { createAjv } from '../../src/json-schema/create-ajv.js';
import { startDaemon, type TestDaemon } from '../fixtures/test-daemon.js';
import { signingSecretOf, WebhookReceiver } from '../fixtures/webhook-receiver.js';
import { configureIdentity, mailEnv } from '../mail/harness.js';
import { runCli } from './run-cli.js';

let daemon: TestDaemon;
let receiver: WebhookReceiver;
let orgSecret: string;
/** The CLI on the daemon's data directory; ERRAND_DEV lets its target guard take the loopback receiver, as the daemon's does. */
const cli = (...args: string[]) => runCli(['--home', daemon.home, ...args], { env: { ERRAND_DEV: '1' } });

beforeAll(async () => {
  daemon = await startDaemon({ env: mailEnv({}) });
  orgSecret = signingSecretOf(daemon.home, daemon.orgId);
  receiver = await WebhookReceiver.start([orgSecret]);
});
afterAll(async () => {
  await receiver?.close();
  await daemon?.cleanup();
});

function validData(type: 'run.completed' | 'email.received', data: unknown): unknown {
  const validate = createAjv({ allErrors: true, strict: false }).compile(eventSpec(type).data);
  return validate(data) ? [] : validate.errors;
}

describe('errand webhooks test <event>', () => {
  it('sends a signed sample through the outbox to --url, marked "test": true, delivered and listed like any webhook', async () => {
    const res = await cli('webhooks', 'test', 'run.completed', '--url', receiver.url('/runs'), '--json');
    expect(res.code, res.stderr).toBe(0);
    const queued = res.json();
    expect(queued).toMatchObject({ object: 'webhook_delivery', event: 'run.completed', url: receiver.url('/runs'), event_id: expect.stringMatching(/^evt_/) });

    const [delivery] = await receiver.waitFor((ds) => ds.some((d) => d.path === '/runs') && ds.filter((d) => d.path === '/runs'), 'the sample');
    expect(receiver.unverified()).toEqual([]);
    expect(delivery!.verifiedWith).toBe(orgSecret);
    expect(delivery!.id).toBe(queued.event_id);
    expect(Object.keys(delivery!.json)).toEqual(['event', 'livemode', 'data', 'test']);
    expect(delivery!.json).toMatchObject({ event: 'run.completed', test: true, data: { object: 'run', status: 'succeeded' } });
    expect(validData('run.completed', delivery!.json.data)).toEqual([]);

    const listed = await waitForListed(queued.id);
    expect(listed).toMatchObject({ id: queued.id, event: 'run.completed', status: 'succeeded', attempts: 1, last_status_code: 200 });
  });

  it("goes where the organisation's events of that type go when no --url is given, signed with the secret they are signed with", async () => {
    const refused = await cli('webhooks', 'test', 'email.received', '--json');
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stderr).error).toMatchObject({ code: 'no_webhook_target', param: 'url', message: expect.stringContaining("the identity's") });

    const identity = await configureIdentity(daemon, { callback_url: receiver.url('/mail') });
    receiver.secrets.push(identity.webhook_secret);
    const res = await cli('webhooks', 'test', 'email.received', '--json');
    expect(res.code, res.stderr).toBe(0);
    expect(res.json()).toMatchObject({ event: 'email.received', url: receiver.url('/mail') });
    const [delivery] = await receiver.waitFor((ds) => ds.some((d) => d.path === '/mail') && ds.filter((d) => d.path === '/mail'), 'the email sample');
    expect(delivery!.verifiedWith).toBe(identity.webhook_secret);
    expect(delivery!.json).toMatchObject({ event: 'email.received', test: true, data: { text: expect.any(String), html: expect.any(String), metadata: { sample: true } } });
    expect(validData('email.received', delivery!.json.data)).toEqual([]);
  });

  it('refuses an address the target guard refuses, and a type that is not a webhook (exit 2)', async () => {
    const guarded = await runCli(['--home', daemon.home, 'webhooks', 'test', 'run.failed', '--url', 'http://127.0.0.1:9/hook', '--json']);
    expect(guarded.code).toBe(1);
    expect(JSON.parse(guarded.stderr).error).toMatchObject({ code: 'invalid_callback_url', param: 'url' });
    const unknown = await cli('webhooks', 'test', 'run.status');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("'run.status' is invalid for argument 'event'. Allowed choices are run.needs_human, run.human_answered, run.completed");
  });
});

/** The delivery as `errand webhooks deliveries` lists it, once its attempt is recorded. */
async function waitForListed(id: string): Promise<any> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const listed = (await cli('webhooks', 'deliveries', '--json')).json().data.find((d: { id: string }) => d.id === id);
    if (listed?.attempts > 0) return listed;
    if (Date.now() > deadline) throw new Error(`delivery ${id} was not attempted: ${JSON.stringify(listed)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
