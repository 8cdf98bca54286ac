/**
 * Run webhooks through the real, compiled daemon (issue 4): every delivery is verified by a loopback receiver with
 * the standardwebhooks library; the outbox is read from the data directory where the API shows nothing of it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '../../src/runtime/paths.js';
import { openStore } from '../../src/store/store.js';
import { hold, startScriptedAnthropic, toolUse, type ScriptedAnthropic } from '../fixtures/scripted-anthropic.js';
import { startDaemon, type TestDaemon } from '../fixtures/test-daemon.js';
import { rotateSigningSecret, signingSecretOf, verifiesAlone, WebhookReceiver, type ReceivedDelivery } from '../fixtures/webhook-receiver.js';

const MODEL_KEY = 'test-key';
const TERMINAL = ['succeeded', 'failed', 'cancelled'];
const EVENT_OF: Record<string, string> = { succeeded: 'run.completed', failed: 'run.failed', cancelled: 'run.cancelled' };
/** Retries 1 s apart and a 1 s timeout keep the retry cases quick; the schedule allows 4 attempts in all. */
const FAST_WEBHOOKS = { ERRAND_WEBHOOKS_RETRY_SCHEDULE_S: '0,1,1,1', ERRAND_WEBHOOKS_TIMEOUT_S: '1' };

async function createRun(d: TestDaemon, body: Record<string, unknown>): Promise<string> {
  const res = await d.api('POST', '/v1/runs', body);
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body.task_id as string;
}

async function waitForRun(d: TestDaemon, runId: string, statuses = TERMINAL, timeoutMs = 30_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await d.api('GET', `/v1/runs/${runId}`);
    if (res.status === 200 && statuses.includes(res.body.status)) return res.body;
    if (Date.now() > deadline) throw new Error(`run ${runId} did not reach ${statuses.join('|')}: ${JSON.stringify(res.body)}\n${d.logs().slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The run as the API shows it, which the webhook's `data` must equal (signed links carry their own expiry). */
async function envelopeOf(d: TestDaemon, runId: string): Promise<any> {
  const res = await d.api('GET', `/v1/runs/${runId}`);
  expect(res.status).toBe(200);
  return withoutVolatile(res.body);
}

function withoutVolatile(envelope: any): any {
  const copy = structuredClone(envelope);
  if (typeof copy.evidence?.screenshot_url === 'string') copy.evidence.screenshot_url = '<signed link>';
  return copy;
}

/** The outbox rows and attempts of one run, read from the daemon's database. */
function outboxOf(d: TestDaemon, runId: string) {
  const store = openStore(dataPaths(d.home).database);
  try {
    const deliveries = store.webhooks.listDeliveries(d.orgId, { runId, failedOnly: false, limit: 50, cursor: null }).items;
    return deliveries.map((row) => ({ ...row, attemptLog: store.webhooks.attempts(row.id) }));
  } finally {
    store.close();
  }
}

async function waitForOutbox(d: TestDaemon, runId: string, done: (rows: ReturnType<typeof outboxOf>) => boolean, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = outboxOf(d, runId);
    if (done(rows)) return rows;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(rows, null, 2)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

function signaturesOf(delivery: ReceivedDelivery): string[] {
  return String(delivery.headers['webhook-signature'] ?? '').split(' ').filter((s) => s !== '');
}

describe('run webhooks with a scripted model', () => {
  let model: ScriptedAnthropic;
  let d: TestDaemon;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    model = await startScriptedAnthropic({ apiKey: MODEL_KEY });
    d = await startDaemon({
      env: {
        ...FAST_WEBHOOKS,
        ERRAND_SANDBOX_DRIVER: 'local',
        ANTHROPIC_BASE_URL: model.baseUrl,
        ANTHROPIC_API_KEY: MODEL_KEY,
        // One run at a time: a run held on its model turn keeps the next one queued.
        ERRAND_LIMITS_MAX_CONCURRENT_RUNS: '1',
      },
    });
    receiver = await WebhookReceiver.start([signingSecretOf(d.home, d.orgId)]);
  });

  afterAll(async () => {
    await d?.cleanup();
    await receiver?.close();
    await model?.close();
  });

  afterEach(() => {
    expect(receiver.unverified()).toEqual([]);
  });

  it('sends run.cancelled for a queued run cancelled by request, and run.completed when the running run finishes', async () => {
    const held = hold(toolUse('finish', { result: { answer: 42 }, confidence: 'high', matched_text: 'forty-two' }));
    model.script([held]);
    const running = await createRun(d, { prompt: 'What is six times seven?', callback_url: receiver.url('/completed') });
    await held.arrived;
    const queued = await createRun(d, { prompt: 'Never started', callback_url: receiver.url('/cancelled') });
    expect((await d.api('GET', `/v1/runs/${queued}`)).body.status).toBe('queued');

    const cancel = await d.api('POST', `/v1/runs/${queued}/cancel`);
    expect(cancel.status).toBe(200);
    expect(cancel.body.status).toBe('cancelled');
    const [cancelled] = await receiver.waitFor((ds) => ds.some((x) => x.path === '/cancelled') && ds.filter((x) => x.path === '/cancelled'), 'run.cancelled');
    expect(cancelled!.json).toEqual({ event: 'run.cancelled', livemode: true, data: await envelopeOf(d, queued) });
    expect(cancelled!.json.data).toMatchObject({ task_id: queued, status: 'cancelled', started_at: null });

    held.release();
    const finished = await waitForRun(d, running);
    expect(finished.status).toBe('succeeded');
    const [completed] = await receiver.waitFor((ds) => ds.some((x) => x.path === '/completed') && ds.filter((x) => x.path === '/completed'), 'run.completed');
    expect(completed!.json).toEqual({ event: 'run.completed', livemode: true, data: withoutVolatile(finished) });
    expect(completed!.json.data).toMatchObject({ task_id: running, status: 'succeeded', result: { answer: 42 }, confidence: 'high' });
    expect(completed!.id).toMatch(/^evt_/);
    expect(completed!.id).not.toBe(cancelled!.id);
    expect(receiver.at('/completed')).toHaveLength(1);
    expect(receiver.at('/cancelled')).toHaveLength(1);
  });

  it('sends run.failed when the model ends the task as impossible, and no webhook for a run without callback_url', async () => {
    model.script([
      toolUse('finish', { result: null, failure_reason: 'not_found', failure_detail: 'There is no such page.' }),
      toolUse('finish', { result: { quiet: true }, confidence: 'low' }),
    ]);
    const failing = await createRun(d, { prompt: 'Find the missing page', callback_url: receiver.url('/failed') });
    const failed = await waitForRun(d, failing);
    expect(failed).toMatchObject({ status: 'failed', failure_reason: 'not_found' });
    const [delivery] = await receiver.waitFor((ds) => ds.some((x) => x.path === '/failed') && ds.filter((x) => x.path === '/failed'), 'run.failed');
    expect(delivery!.json).toEqual({ event: 'run.failed', livemode: true, data: withoutVolatile(failed) });

    const before = receiver.deliveries.length;
    const silent = await createRun(d, { prompt: 'Nobody listens' });
    expect((await waitForRun(d, silent)).status).toBe('succeeded');
    expect(outboxOf(d, silent)).toEqual([]);
    expect(receiver.deliveries.length).toBe(before);
  });

  it('sends run.cancelled for a running run cancelled during its model call', async () => {
    const held = hold(toolUse('finish', { result: { late: true }, confidence: 'high' }));
    model.script([held]);
    const runId = await createRun(d, { prompt: 'Think slowly', callback_url: receiver.url('/cancel-running') });
    await held.arrived;
    expect((await d.api('GET', `/v1/runs/${runId}`)).body.status).toBe('running');
    expect((await d.api('POST', `/v1/runs/${runId}/cancel`)).status).toBe(200);
    await held.disconnected;
    const [delivery] = await receiver.waitFor(
      (ds) => ds.some((x) => x.path === '/cancel-running') && ds.filter((x) => x.path === '/cancel-running'),
      'run.cancelled of the running run',
    );
    const after = await waitForRun(d, runId);
    // The event is the run at the moment it was cancelled. The engine winds down afterwards and bills the sandbox
    // time of that wind-down, so only cost_usd may have grown since.
    const { usage: sentUsage, ...sent } = delivery!.json.data;
    const { usage: nowUsage, ...now } = withoutVolatile(after);
    expect(delivery!.json.event).toBe('run.cancelled');
    expect(sent).toEqual(now);
    expect({ ...sentUsage, cost_usd: 0 }).toEqual({ ...nowUsage, cost_usd: 0 });
    expect(sentUsage.cost_usd).toBeLessThanOrEqual(nowUsage.cost_usd);
    expect(receiver.at('/cancel-running')).toHaveLength(1);
  });

  // Last in its group: when the cancel wins, the scripted turn stays unused.
  it('sends the event matching the final status when a run is cancelled right after it is created', async () => {
    model.script([toolUse('finish', { result: { fast: true }, confidence: 'high' })]);
    const runId = await createRun(d, { prompt: 'Race me', callback_url: receiver.url('/race') });
    const cancel = await d.api('POST', `/v1/runs/${runId}/cancel`);
    // The engine may have claimed and finished the run first (409), or the cancel won.
    expect([200, 409]).toContain(cancel.status);
    const run = await waitForRun(d, runId);
    const [delivery] = await receiver.waitFor((ds) => ds.some((x) => x.path === '/race') && ds.filter((x) => x.path === '/race'), 'the race webhook');
    expect(delivery!.json.event).toBe(EVENT_OF[run.status]);
    expect(delivery!.json.data).toEqual(withoutVolatile(run));
    if (cancel.status === 200) expect(run.status).toBe('cancelled');
  });
});

describe('run webhooks from a daemon without a model', () => {
  let d: TestDaemon;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    // No ANTHROPIC_API_KEY: every run is claimed and fails at once, which makes a webhook on demand.
    d = await startDaemon({ env: { ...FAST_WEBHOOKS, ERRAND_SANDBOX_DRIVER: 'local', ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '' } });
    receiver = await WebhookReceiver.start([signingSecretOf(d.home, d.orgId)]);
  });

  afterAll(async () => {
    await d?.cleanup();
    await receiver?.close();
  });

  afterEach(() => {
    expect(receiver.unverified()).toEqual([]);
    receiver.respond = () => ({ status: 200 });
  });

  /** Starts a run that fails (no model) and resolves with its id and its final envelope. */
  async function failingRun(path: string): Promise<{ runId: string; run: any }> {
    const runId = await createRun(d, { prompt: 'Anything', callback_url: receiver.url(path) });
    return { runId, run: await waitForRun(d, runId) };
  }

  it('sends run.failed whose data is the failed run, naming the missing setting', async () => {
    const { runId, run } = await failingRun('/no-model');
    expect(run.status).toBe('failed');
    expect(run.failure_detail).toContain('ANTHROPIC_API_KEY');
    const [delivery] = await receiver.waitFor((ds) => ds.some((x) => x.path === '/no-model') && ds.filter((x) => x.path === '/no-model'), 'run.failed');
    expect(delivery!.json).toEqual({ event: 'run.failed', livemode: true, data: withoutVolatile(run) });
    expect(delivery!.headers['content-type']).toBe('application/json');
    const rows = await waitForOutbox(d, runId, (r) => r[0]?.status === 'succeeded', 'the delivery to be recorded');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ event_id: delivery!.id, event_type: 'run.failed', attempts: 1, last_status_code: 200 });
  });

  it('signs with the old and the new secret during a rotation, each signature verifying with its own secret', async () => {
    const before = signingSecretOf(d.home, d.orgId);
    const rotated = rotateSigningSecret(d.home, d.orgId);
    expect(rotated.secret).not.toBe(before);
    expect(rotated.previous_expires_at).not.toBeNull();
    receiver.secrets = [rotated.secret, before];
    try {
      await failingRun('/rotation');
      const [delivery] = await receiver.waitFor((ds) => ds.some((x) => x.path === '/rotation') && ds.filter((x) => x.path === '/rotation'), 'the rotated delivery');
      const signatures = signaturesOf(delivery!);
      expect(signatures).toHaveLength(2);
      const byNew = signatures.filter((s) => verifiesAlone(delivery!, s, rotated.secret));
      const byOld = signatures.filter((s) => verifiesAlone(delivery!, s, before));
      expect(byNew).toHaveLength(1);
      expect(byOld).toHaveLength(1);
      expect(byNew[0]).not.toBe(byOld[0]);
    } finally {
      // Later cases verify with the new secret only, which a delivery signed with the old one alone would fail.
      receiver.secrets = [signingSecretOf(d.home, d.orgId)];
    }
  });

  it('retries a receiver that fails three times, with the same webhook-id on all four attempts', async () => {
    receiver.respond = (delivery) => (receiver.at(delivery.path).length <= 3 ? { status: 500 } : { status: 200 });
    const { runId } = await failingRun('/flaky');
    const attempts = await receiver.waitFor((ds) => ds.filter((x) => x.path === '/flaky').length >= 4 && ds.filter((x) => x.path === '/flaky'), 'four attempts');
    expect(new Set(attempts.map((a) => a.id)).size).toBe(1);
    expect(new Set(attempts.map((a) => a.body)).size).toBe(1);
    const rows = await waitForOutbox(d, runId, (r) => r[0]?.status === 'succeeded', 'the delivery to succeed');
    expect(rows[0]!.attempts).toBe(4);
    expect(rows[0]!.event_id).toBe(attempts[0]!.id);
    expect(rows[0]!.attemptLog.map((a) => a.status_code)).toEqual([500, 500, 500, 200]);
    expect(receiver.at('/flaky')).toHaveLength(4);
  });

  it('stops retrying when the receiver answers 410 Gone', async () => {
    receiver.respond = () => ({ status: 410 });
    const { runId } = await failingRun('/gone');
    const rows = await waitForOutbox(d, runId, (r) => r[0]?.status === 'failed', 'the delivery to fail for good');
    expect(rows[0]!.attempts).toBe(1);
    expect(rows[0]!.next_attempt_at).toBeNull();
    expect(rows[0]!.attemptLog.map((a) => a.status_code)).toEqual([410]);
    expect(receiver.at('/gone')).toHaveLength(1);
  });

  it('does not follow a redirect: the 3xx is a failed attempt and the event is retried at its own URL', async () => {
    receiver.respond = (delivery) =>
      receiver.at(delivery.path).length === 1 ? { status: 307, headers: { location: receiver.url('/elsewhere') } } : { status: 204 };
    const { runId } = await failingRun('/moved');
    const rows = await waitForOutbox(d, runId, (r) => r[0]?.status === 'succeeded', 'the retried delivery to succeed');
    expect(rows[0]!.attemptLog.map((a) => a.status_code)).toEqual([307, 204]);
    expect(rows[0]!.attemptLog[0]!.error).toMatch(/redirect/);
    expect(receiver.at('/moved')).toHaveLength(2);
    expect(receiver.at('/elsewhere')).toEqual([]);
  });

  it('honours Retry-After when it asks for a longer wait than the schedule', async () => {
    receiver.respond = (delivery) => (receiver.at(delivery.path).length === 1 ? { status: 503, headers: { 'retry-after': '3' } } : { status: 200 });
    const { runId } = await failingRun('/later');
    const [waiting] = await waitForOutbox(d, runId, (r) => r[0]?.attempts === 1, 'the first attempt');
    expect(waiting!.status).toBe('pending');
    // The schedule says 1 s (plus at most 10% jitter); the receiver asked for 3.
    expect(waiting!.next_attempt_at! - Date.parse(waiting!.attemptLog[0]!.created_at)).toBeGreaterThanOrEqual(3_000);
    const rows = await waitForOutbox(d, runId, (r) => r[0]?.status === 'succeeded', 'the delivery after the wait');
    expect(rows[0]!.attemptLog.map((a) => a.status_code)).toEqual([503, 200]);
  });

  it('counts a receiver slower than webhooks.timeout_s as a failed attempt and retries it', async () => {
    receiver.respond = (delivery) => (receiver.at(delivery.path).length === 1 ? { status: 200, delayMs: 3_000 } : { status: 200 });
    const { runId } = await failingRun('/slow');
    const rows = await waitForOutbox(d, runId, (r) => r[0]?.status === 'succeeded', 'the retried delivery to succeed');
    expect(rows[0]!.attempts).toBe(2);
    const [first, second] = rows[0]!.attemptLog;
    expect(first).toMatchObject({ status_code: null });
    expect(first!.error).toMatch(/within 1 s/);
    expect(second).toMatchObject({ status_code: 200, error: null });
    const seen = receiver.at('/slow');
    expect(seen).toHaveLength(2);
    expect(seen[0]!.id).toBe(seen[1]!.id);
  });

  it('delivers events left undelivered by a SIGKILLed daemon after it restarts, none lost and none duplicated', async () => {
    receiver.respond = () => ({ status: 503 });
    const runs = await Promise.all(['/crash-1', '/crash-2', '/crash-3'].map((path) => failingRun(path)));
    // Each event has met the 503 at least once and waits in the outbox for its next attempt.
    for (const { runId } of runs) {
      await waitForOutbox(d, runId, (r) => r[0] !== undefined && r[0].attempts >= 1 && r[0].status === 'pending', 'a failed first attempt');
    }
    await d.kill();
    const pending = runs.map(({ runId }) => outboxOf(d, runId));
    for (const rows of pending) {
      expect(rows).toHaveLength(1);
      expect(rows[0]!.status).toBe('pending');
    }
    receiver.respond = () => ({ status: 200 });
    await d.restart();

    for (const [i, { runId, run }] of runs.entries()) {
      // A kill in the middle of an attempt leaves its lease to run out (timeout + 30 s) before the retry.
      const rows = await waitForOutbox(d, runId, (r) => r[0]?.status === 'succeeded', `delivery of run ${i + 1} after the restart`, 60_000);
      expect(rows).toHaveLength(1);
      const seen = receiver.at(`/crash-${i + 1}`);
      expect(new Set(seen.map((x) => x.id))).toEqual(new Set([pending[i]![0]!.event_id]));
      expect(seen.at(-1)!.json).toEqual({ event: 'run.failed', livemode: true, data: withoutVolatile(run) });
      expect(rows[0]!.attemptLog.at(-1)!.status_code).toBe(200);
      expect(rows[0]!.attemptLog.slice(0, -1).every((a) => a.status_code === 503)).toBe(true);
    }
  });

  it('delivers an event that a SIGKILLed daemon committed but never attempted', async () => {
    // The first attempt waits 3 s, which leaves the event in the outbox, unsent, when the daemon dies.
    await d.restart({ env: { ERRAND_WEBHOOKS_RETRY_SCHEDULE_S: '3,1,1,1' } });
    const { runId, run } = await failingRun('/unsent');
    await d.kill();
    const [row] = outboxOf(d, runId);
    expect(row).toMatchObject({ status: 'pending', attempts: 0 });
    expect(receiver.at('/unsent')).toEqual([]);

    await d.restart();
    const rows = await waitForOutbox(d, runId, (r) => r[0]?.status === 'succeeded', 'the delivery after the restart');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.attempts).toBe(1);
    const seen = receiver.at('/unsent');
    expect(seen).toHaveLength(1);
    expect(seen[0]!.id).toBe(row!.event_id);
    expect(seen[0]!.json).toEqual({ event: 'run.failed', livemode: true, data: withoutVolatile(run) });
  });
});

describe('callback_url targets without --dev', () => {
  let d: TestDaemon;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    d = await startDaemon({ dev: false, env: { ERRAND_SANDBOX_DRIVER: 'local', ANTHROPIC_API_KEY: '' } });
    receiver = await WebhookReceiver.start([signingSecretOf(d.home, d.orgId)]);
  });

  afterAll(async () => {
    await d?.cleanup();
    await receiver?.close();
  });

  async function runCount(): Promise<number> {
    const res = await d.api('GET', '/v1/runs?limit=200');
    expect(res.status).toBe(200);
    return res.body.data.length;
  }

  it.each([
    ['a loopback https target', 'https://127.0.0.1/hook'],
    ['a loopback IPv6 target', 'https://[::1]:8443/hook'],
    ['a host name resolving to loopback', 'https://localhost/hook'],
    ['an http target', 'http://127.0.0.1:9/hook'],
  ])('refuses %s at run creation with 400 invalid_callback_url and creates no run', async (_what, url) => {
    const before = await runCount();
    const res = await d.api('POST', '/v1/runs', { prompt: 'Call me back', callback_url: url });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_callback_url', param: 'callback_url' });
    expect(await runCount()).toBe(before);
  });

  it('refuses a loopback callback_url on a job run and a job schedule, naming the member', async () => {
    const project = (await d.api('GET', '/v1/projects')).body.data[0].id as string;
    const refusedJob = await d.api('POST', '/v1/jobs', {
      project_id: project,
      name: 'nightly',
      prompt: 'Check',
      schedule: { cron: '0 3 * * *', timezone: 'UTC', callback_url: 'https://127.0.0.1/hook' },
    });
    expect(refusedJob.status).toBe(400);
    expect(refusedJob.body.error).toMatchObject({ code: 'invalid_callback_url', param: 'schedule.callback_url' });
    expect((await d.api('GET', '/v1/jobs')).body.data).toEqual([]);

    const job = await d.api('POST', '/v1/jobs', { project_id: project, name: 'manual', prompt: 'Check' });
    expect(job.status).toBe(201);
    const patched = await d.api('PATCH', `/v1/jobs/${job.body.id}`, { schedule: { cron: '0 3 * * *', callback_url: 'http://127.0.0.1:9/hook' } });
    expect(patched.status).toBe(400);
    expect(patched.body.error).toMatchObject({ code: 'invalid_callback_url', param: 'schedule.callback_url' });
    expect((await d.api('GET', `/v1/jobs/${job.body.id}`)).body.schedule).toBeNull();

    const before = await runCount();
    const run = await d.api('POST', `/v1/jobs/${job.body.id}/runs`, { callback_url: 'https://127.0.0.1/hook' });
    expect(run.status).toBe(400);
    expect(run.body.error).toMatchObject({ code: 'invalid_callback_url', param: 'callback_url' });
    expect(await runCount()).toBe(before);
  });

  // Last in its group: it restarts the daemon with other settings.
  it('checks the target again at delivery: an event accepted under allow_private_targets is refused once that is off', async () => {
    await d.restart({ env: { ERRAND_WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true', ERRAND_WEBHOOKS_RETRY_SCHEDULE_S: '3,1,1,1' } });
    const runId = await createRun(d, { prompt: 'Call me back', callback_url: receiver.url('/private') });
    await waitForRun(d, runId);
    await d.kill();
    expect(outboxOf(d, runId)).toMatchObject([{ status: 'pending', attempts: 0 }]);

    await d.restart({ env: { ERRAND_WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'false' } });
    const rows = await waitForOutbox(d, runId, (r) => r[0]?.status === 'failed', 'the refused delivery');
    expect(rows[0]!.attempts).toBe(1);
    expect(rows[0]!.attemptLog[0]).toMatchObject({ status_code: null });
    expect(rows[0]!.attemptLog[0]!.error).toMatch(/https|loopback/);
    expect(receiver.deliveries).toEqual([]);
  });
});
