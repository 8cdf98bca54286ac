/**
 * The event catalogue against what a real daemon emits: every flow that emits an event, driven through the compiled
 * daemon (runs that succeed, fail and are cancelled, webhook attempts, schedule firings started, skipped and paused,
 * mail received, bounced and complained about, a connection authenticated and expired, a profile found signed out,
 * evals completed and cancelled); then every row of the event log and every webhook delivery must have a catalogued
 * type, data its schema accepts, and the catalogue's routing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isoTime } from '../../src/clock.js';
import { EVENT_TYPES, WEBHOOK_EVENT_TYPES, eventSpec, isEventType, loggedDataSchema } from '../../src/event-log/event-catalogue.js';
import { createAjv } from '../../src/json-schema/create-ajv.js';
import type { EventRow, EventWebhookRow } from '../../src/store/events-store.js';
import type { WebhookDeliveryRow } from '../../src/store/webhooks-store.js';
import { withStore } from '../api/harness.js';
import { servePages } from '../engine/harness.js';
import { LoopbackDns } from '../fixtures/dns-server.js';
import { signInThrough, startOAuthProvider, type OAuthProviderFixture } from '../fixtures/oauth-provider.js';
import { hold, startScriptedAnthropic, toolUse, type ScriptedAnthropic } from '../fixtures/scripted-anthropic.js';
import { SmtpSink } from '../fixtures/smtp-sink.js';
import { startDaemon, type TestDaemon } from '../fixtures/test-daemon.js';
import { signingSecretOf, WebhookReceiver } from '../fixtures/webhook-receiver.js';
import { configureIdentity, deliveryStatusReport, feedbackReport, mailEnv, mailIn, send, smtpPortOf } from '../mail/harness.js';

const MODEL_KEY = 'test-key';
const EVERY_SECOND = '* * * * * *';
const SUCCEED = () => toolUse('finish', { result: { ok: true }, confidence: 'high' });

let model: ScriptedAnthropic;
let sink: SmtpSink;
let dns: LoopbackDns;
let provider: OAuthProviderFixture;
let receiver: WebhookReceiver;
let d: TestDaemon;

beforeAll(async () => {
  [model, sink, dns, provider] = await Promise.all([startScriptedAnthropic({ apiKey: MODEL_KEY }), SmtpSink.start(), LoopbackDns.start(), startOAuthProvider()]);
  d = await startDaemon({
    env: mailEnv({
      sink,
      env: {
        ANTHROPIC_BASE_URL: model.baseUrl,
        ANTHROPIC_API_KEY: MODEL_KEY,
        ERRAND_DNS_SERVERS: dns.server,
        ERRAND_OAUTH_PROVIDERS: JSON.stringify({ acme: provider.config('acme-client-secret-for-events') }),
        ERRAND_WEBHOOKS_RETRY_SCHEDULE_S: '0,1',
      },
    }),
  });
  receiver = await WebhookReceiver.start([signingSecretOf(d.home, d.orgId)]);
});

afterAll(async () => {
  await d?.cleanup();
  await Promise.all([receiver?.close(), model?.close(), sink?.close(), dns?.close(), provider?.close()]);
});

async function until<T>(what: string, probe: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${d.logs().slice(-3000)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function createRun(body: Record<string, unknown>): Promise<string> {
  const res = await d.api('POST', '/v1/runs', body);
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body.task_id as string;
}

function ended(runId: string): Promise<unknown> {
  return until(`run ${runId} to end`, async () => {
    const run = (await d.api('GET', `/v1/runs/${runId}`)).body;
    return ['succeeded', 'failed', 'cancelled'].includes(run.status) && run;
  });
}

/** Every event row of every organisation with the webhook it carries, and every webhook delivery, as the daemon stored them. */
function stored(orgIds: string[]): { events: (EventRow & { webhook: EventWebhookRow | undefined })[]; deliveries: WebhookDeliveryRow[] } {
  return withStore(d, (store) => ({
    events: orgIds.flatMap((orgId) => store.events.orgAfter(orgId, 0, 10_000).map((e) => ({ ...e, webhook: store.events.webhook(orgId, e.id) }))),
    deliveries: orgIds.flatMap((orgId) => store.webhooks.listDeliveries(orgId, { runId: null, failedOnly: false, limit: 200, cursor: null }).items),
  }));
}

describe('the event catalogue', () => {
  it('describes every event a daemon emits and every webhook it sends, with data its schemas accept', async () => {
    const project = (await d.api('GET', '/v1/projects')).body.data[0].id as string;
    withStore(d, (store) => store.webhooks.setOrgEndpoint({ org_id: d.orgId, url: receiver.url('/org'), updated_at: isoTime(Date.now()) }));

    // Runs: one fails, one is cancelled during its model call, one succeeds; each with a callback (webhook.attempted).
    model.script([toolUse('finish', { result: null, failure_reason: 'not_found', failure_detail: 'There is no such page.' })]);
    await ended(await createRun({ prompt: 'Find the missing page', callback_url: receiver.url('/runs') }));
    const held = hold(SUCCEED());
    model.script([held]);
    const cancelled = await createRun({ prompt: 'Think slowly', callback_url: receiver.url('/runs') });
    await held.arrived;
    expect((await d.api('POST', `/v1/runs/${cancelled}/cancel`)).status).toBe(200);
    await held.disconnected;
    await ended(cancelled);
    // A person asked for (run.needs_human) and answering (run.human_answered).
    model.script([toolUse('request_human', { kind: 'answer', question: 'Which one?' }), toolUse('finish', { result: { one: 'first' }, confidence: 'high', matched_text: 'The first' })]);
    const asking = await createRun({ prompt: 'Ask a person', callback_url: receiver.url('/runs') });
    const waiting = await until('the run to wait for a person', async () => (await d.api('GET', `/v1/runs/${asking}`)).body.waiting_for);
    expect((await d.api('POST', `/v1/runs/${asking}/human`, { request_id: waiting.request_id, answer: 'The first' })).status).toBe(200);
    await ended(asking);
    model.script(Array.from({ length: 5 }, SUCCEED));
    await ended(await createRun({ prompt: 'What is six times seven?', callback_url: receiver.url('/runs') }));

    // Schedules: a firing that starts a run, firings a daily cap of 0 refuses, a job change that pauses a schedule.
    const fired = (await d.api('POST', '/v1/jobs', { project_id: project, name: 'fires', prompt: 'Tick', schedule: { cron: EVERY_SECOND } })).body;
    const broke = d.createOrgWithKey('broke', { dailyCapUsd: 0 });
    const brokeProject = (await d.api('GET', '/v1/projects', undefined, { key: broke.key })).body.data[0].id as string;
    const refused = (await d.api('POST', '/v1/jobs', { project_id: brokeProject, name: 'refused', prompt: 'Tick', schedule: { cron: EVERY_SECOND } }, { key: broke.key })).body;
    const logged = (orgId: string, type: string) => stored([orgId]).events.some((e) => e.type === type);
    await until('a firing that started a run, and one that was skipped', () => logged(d.orgId, 'schedule.fired') && logged(broke.orgId, 'schedule.skipped'));
    await d.api('PATCH', `/v1/jobs/${fired.id}`, { schedule: { cron: EVERY_SECOND, enabled: false } });
    await d.api('PATCH', `/v1/jobs/${refused.id}`, { schedule: { cron: EVERY_SECOND, enabled: false } }, { key: broke.key });
    const pausing = (await d.api('POST', '/v1/jobs', { project_id: project, name: 'paused', prompt: 'Weather in {{city}}', schedule: { cron: '0 9 * * *', inputs: { city: 'Oslo' } } })).body;
    const required = { type: 'object', required: ['city', 'units'], properties: { city: { type: 'string' }, units: { type: 'string' } } };
    expect((await d.api('PATCH', `/v1/jobs/${pausing.id}`, { input_schema: required })).body.schedule.enabled).toBe(false);

    // Mail: a reply to a send, then a bounce and a complaint at its correlation address.
    const identity = await configureIdentity(d, { callback_url: receiver.url('/mail') });
    receiver.secrets.push(identity.webhook_secret);
    const sent = await send(d, { to: ['gone@example.test', 'annoyed@example.test'], subject: 'Hello', text: 'hi', metadata: { campaign: 'nov' } });
    await sink.waitFor(1);
    const correlation = sent.reply_to.address as string;
    const port = await smtpPortOf(d);
    await mailIn(port, { from: 'someone@example.test', to: correlation }, `From: Someone <someone@example.test>\nTo: ${correlation}\nSubject: Re: Hello\n\nThanks!\n`);
    await mailIn(port, { from: '', to: correlation }, deliveryStatusReport(correlation, 'gone@example.test', '5.1.1'));
    await mailIn(port, { from: '', to: correlation }, feedbackReport(correlation, 'annoyed@example.test'));

    // Connections: connected through hosted connect, then expired by a refused refresh.
    const link = (await d.api('POST', '/v1/connections/links', { provider: 'acme' })).body;
    await signInThrough(link.url);
    provider.refreshes = 'refuse';
    await d.api('POST', `/v1/connections/${link.connection_id}/check`);

    // Profiles: a check that finds one signed out (its page shows no "Sign out").
    const portal = await servePages((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Sign in</title><p>Please sign in</p>'));
    const profile = (await d.api('POST', '/v1/profiles', { name: 'portal', check: { url: `${portal.url}/account`, text: 'Sign out' } })).body;
    expect((await d.api('POST', `/v1/profiles/${profile.id}/check`)).body.health).toBe('signed_out');
    await portal.close();

    // Evals: one that completes, and one cancelled while its case's run waits for a person.
    const evaluated = (await d.api('POST', '/v1/jobs', { project_id: project, name: 'evaluated', prompt: 'Say ok' })).body;
    model.script([SUCCEED()]);
    const completedEval = (await d.api('POST', `/v1/jobs/${evaluated.id}/evals`, { cases: [{ name: 'ok', expect: { members: { ok: { equals: true } } } }] })).body;
    await until('the eval to complete', async () => (await d.api('GET', `/v1/evals/${completedEval.id}`)).body.status === 'completed');
    // Turns the schedule's firings left unused go first, so that the next run is the one that asks.
    while (model.remaining > 0) await ended(await createRun({ prompt: 'Use up a turn' }));
    model.script([toolUse('request_human', { kind: 'answer', question: 'Which one?' })]);
    const cancelledEval = (await d.api('POST', `/v1/jobs/${evaluated.id}/evals`, { cases: [{ name: 'asks', expect: { members: { ok: { equals: true } } } }] })).body;
    await until("the eval's run to wait for a person", async () => {
      const runId = (await d.api('GET', `/v1/evals/${cancelledEval.id}`)).body.cases[0].run_id as string | null;
      return runId !== null && (await d.api('GET', `/v1/runs/${runId}`)).body.waiting_for;
    });
    expect((await d.api('POST', `/v1/evals/${cancelledEval.id}/cancel`)).body.status).toBe('cancelled');

    const every = await until('an event and a webhook of every catalogued type', () => {
      const now = stored([d.orgId, broke.orgId]);
      const types = new Set(now.events.map((e) => e.type));
      const sentTypes = new Set(receiver.deliveries.map((x) => x.json?.event));
      return EVENT_TYPES.every((t) => types.has(t)) && WEBHOOK_EVENT_TYPES.every((t) => sentTypes.has(t)) && now;
    });

    const ajv = createAjv({ allErrors: true, strict: false });
    for (const event of every.events) {
      const what = `event ${event.id} (${event.type})`;
      expect(isEventType(event.type), what).toBe(true);
      if (!isEventType(event.type)) continue;
      const validate = ajv.compile(loggedDataSchema(event.type));
      expect(validate(JSON.parse(event.data)) ? [] : validate.errors, what).toEqual([]);
      const runId = eventSpec(event.type).runId;
      if (runId === 'always') expect(event.run_id, what).toMatch(/^run_/);
      if (runId === 'never') expect(event.run_id, what).toBeNull();
    }
    for (const delivery of every.deliveries) {
      const what = `delivery ${delivery.id} (${delivery.event_type})`;
      expect(isEventType(delivery.event_type), what).toBe(true);
      if (!isEventType(delivery.event_type)) continue;
      const spec = eventSpec(delivery.event_type);
      expect(spec.webhook, what).not.toBeNull();
      expect(delivery.signer, what).toBe(spec.webhook!.signer);
      const payload = JSON.parse(delivery.payload) as { event: string; data: unknown };
      expect(payload.event, what).toBe(delivery.event_type);
      const validate = ajv.compile(spec.data);
      expect(validate(payload.data) ? [] : validate.errors, what).toEqual([]);
    }
    expect(new Set(every.deliveries.map((x) => x.event_type))).toEqual(new Set(WEBHOOK_EVENT_TYPES));
    expect(receiver.unverified()).toEqual([]);

    // Every event with a webhook carries it in the log (what errand listen forwards), and a delivery is that webhook.
    for (const event of every.events) {
      if (!isEventType(event.type)) continue;
      const spec = eventSpec(event.type);
      const hasWebhook = spec.webhook !== null && !(spec.webhook.to === 'mailbox_callback' && event.run_id !== null);
      expect(event.webhook !== undefined, `event ${event.id} (${event.type}) carries a webhook`).toBe(hasWebhook);
      if (event.webhook === undefined) continue;
      const body = JSON.parse(event.webhook.webhook_payload) as { event: string; data: unknown };
      expect(body.event).toBe(event.type);
      const validate = ajv.compile(spec.data);
      expect(validate(body.data) ? [] : validate.errors, `the webhook of event ${event.id} (${event.type})`).toEqual([]);
    }
    const carried = new Map(every.events.flatMap((e) => (e.webhook === undefined ? [] : [[e.webhook.webhook_id, e.webhook.webhook_payload]])));
    for (const delivery of every.deliveries) expect(carried.get(delivery.event_id), `delivery ${delivery.id} (${delivery.event_type})`).toBe(delivery.payload);
  });
});
