import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import type { RunStatus } from '../../src/vocabulary/run-status.js';
import { tempDir } from '../fixtures/temp-dir.js';
import { Harness, Receiver, waitFor, type ReceivedRequest } from './harness.js';

function verify(secret: string, req: ReceivedRequest): unknown {
  return new Webhook(secret).verify(req.body, req.headers as Record<string, string>);
}

describe('webhook delivery worker', () => {
  let dir: ReturnType<typeof tempDir>;
  let receiver: Receiver;
  const harnesses: Harness[] = [];
  const harness = (options?: ConstructorParameters<typeof Harness>[1]) => {
    const h = new Harness(dir.path, options);
    harnesses.push(h);
    return h;
  };

  beforeEach(async () => {
    dir = tempDir();
    receiver = await Receiver.start();
  });

  afterEach(async () => {
    await receiver.close();
    for (const h of harnesses.splice(0)) await h.close();
    dir.remove();
  });

  it.each([
    ['succeeded', 'run.completed'],
    ['failed', 'run.failed'],
    ['cancelled', 'run.cancelled'],
  ] as [RunStatus, string][])('sends %s runs as %s, signed so the standardwebhooks library verifies them', async (status, event) => {
    const h = harness();
    h.worker().start();
    const run = h.finishRun(status, receiver.url());
    const req = await waitFor(() => receiver.requests[0], 'the webhook');
    const secret = h.secrets.current(h.orgId).secret;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const body = verify(secret, req) as { event: string; data: { task_id: string; status: string } };
    expect(body).toEqual({ event, livemode: true, data: expect.objectContaining({ task_id: run.id, status }) });
    expect(req.headers['webhook-id']).toMatch(/^evt_/);
    expect(req.headers['content-type']).toBe('application/json');
    const delivery = await waitFor(() => (h.delivery(run.id)?.status === 'succeeded' ? h.delivery(run.id) : undefined), 'success recorded');
    expect(delivery.event_id).toBe(req.headers['webhook-id']);
    expect(h.webhooks.attempts(delivery.id)).toEqual([expect.objectContaining({ attempt: 1, status_code: 200, error: null })]);
    expect(() => verify(`whsec_${Buffer.alloc(32, 7).toString('base64')}`, req)).toThrow(/signature/i);
  });

  it('enqueues nothing for a run without callback_url or a non-terminal transition', () => {
    const h = harness();
    const run = h.finishRun('succeeded', null);
    expect(h.delivery(run.id)).toBeUndefined();
    h.store.transaction((uow) => h.runEnd({ run: { ...run, status: 'running', callback_url: receiver.url() }, from: 'queued', to: 'running' }, uow));
    expect(h.webhooks.listDeliveries(h.orgId, { runId: null, failedOnly: false, limit: 10, cursor: null }).items).toEqual([]);
  });

  it('loses the event with the transaction that failed, so no webhook announces a state that was never committed', () => {
    const h = harness();
    expect(() => h.finishRun('succeeded', receiver.url(), { failAfterHook: true })).toThrow(/fails after the hook/);
    expect(h.webhooks.listDeliveries(h.orgId, { runId: null, failedOnly: false, limit: 10, cursor: null }).items).toEqual([]);
  });

  it('signs with both secrets during a rotation, and only the new one after 24 h', async () => {
    let secretsNow = Date.now();
    const h = harness({ secretsClock: { now: () => secretsNow } });
    const old = h.secrets.current(h.orgId).secret;
    const rotated = h.secrets.rotate(h.orgId);
    expect(rotated.secret).not.toBe(old);
    expect(Date.parse(rotated.previous_expires_at!) - secretsNow).toBe(24 * 60 * 60 * 1000);
    h.worker().start();

    h.finishRun('succeeded', receiver.url());
    const during = await waitFor(() => receiver.requests[0], 'the webhook during rotation');
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verify(old, during)).toMatchObject({ event: 'run.completed' });
    expect(verify(rotated.secret, during)).toMatchObject({ event: 'run.completed' });

    secretsNow += 24 * 60 * 60 * 1000 + 1;
    h.finishRun('failed', receiver.url());
    const after = await waitFor(() => receiver.requests[1], 'the webhook after rotation');
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verify(rotated.secret, after)).toMatchObject({ event: 'run.failed' });
    expect(() => verify(old, after)).toThrow(/signature/i);
    expect(h.secrets.current(h.orgId).previous_expires_at).toBeNull();
  });

  it('retries a receiver that fails three times, with the same webhook-id, and records all four attempts', async () => {
    const h = harness();
    receiver.reply = (_req, i) => ({ status: i < 3 ? 500 : 204 });
    h.worker().start();
    const run = h.finishRun('succeeded', receiver.url());
    const delivery = await waitFor(() => (h.delivery(run.id)?.status === 'succeeded' ? h.delivery(run.id) : undefined), 'success after retries');
    expect(receiver.requests).toHaveLength(4);
    expect(new Set(receiver.requests.map((r) => r.headers['webhook-id']))).toEqual(new Set([delivery.event_id]));
    const secret = h.secrets.current(h.orgId).secret;
    for (const req of receiver.requests) expect(verify(secret, req)).toMatchObject({ event: 'run.completed' });
    expect(h.webhooks.attempts(delivery.id).map((a) => [a.attempt, a.status_code, a.error])).toEqual([
      [1, 500, 'receiver answered 500'],
      [2, 500, 'receiver answered 500'],
      [3, 500, 'receiver answered 500'],
      [4, 204, null],
    ]);
    expect(delivery.attempts).toBe(4);
  });

  it('gives up after the last scheduled attempt', async () => {
    const h = harness({ config: { 'webhooks.retry_schedule_s': '0,0.05' } });
    receiver.reply = () => ({ status: 503 });
    h.worker().start();
    const run = h.finishRun('failed', receiver.url());
    const delivery = await waitFor(() => (h.delivery(run.id)?.status === 'failed' ? h.delivery(run.id) : undefined), 'the delivery to fail');
    expect(delivery.attempts).toBe(2);
    expect(delivery.next_attempt_at).toBeNull();
    expect(delivery.last_status_code).toBe(503);
    expect(receiver.requests).toHaveLength(2);
  });

  it('stops at 410 Gone', async () => {
    const h = harness();
    receiver.reply = () => ({ status: 410 });
    h.worker().start();
    const run = h.finishRun('succeeded', receiver.url());
    const delivery = await waitFor(() => (h.delivery(run.id)?.status === 'failed' ? h.delivery(run.id) : undefined), 'the delivery to stop');
    expect(delivery).toMatchObject({ attempts: 1, last_status_code: 410, next_attempt_at: null });
    expect(delivery.last_error).toMatch(/410/);
    expect(receiver.requests).toHaveLength(1);
  });

  it('records a slow receiver as a timed-out attempt', async () => {
    const h = harness({ config: { 'webhooks.timeout_s': 1, 'webhooks.retry_schedule_s': '0' } });
    receiver.reply = () => ({ status: 200, delayMs: 5_000 });
    h.worker().start();
    const run = h.finishRun('succeeded', receiver.url());
    const delivery = await waitFor(() => (h.delivery(run.id)?.status === 'failed' ? h.delivery(run.id) : undefined), 'the timeout');
    const [attempt] = h.webhooks.attempts(delivery.id);
    expect(attempt).toMatchObject({ attempt: 1, status_code: null, error: 'no complete response within 1 s' });
    expect(attempt!.latency_ms).toBeGreaterThanOrEqual(900);
  });

  it('waits at least as long as Retry-After asks before the next attempt', async () => {
    const h = harness();
    receiver.reply = (_req, i) => (i === 0 ? { status: 503, headers: { 'retry-after': '2' } } : { status: 200 });
    h.worker().start();
    const run = h.finishRun('succeeded', receiver.url());
    const pending = await waitFor(() => (h.delivery(run.id)?.attempts === 1 ? h.delivery(run.id) : undefined), 'the first attempt');
    const row = h.webhooks.getDelivery(h.orgId, pending.id)!;
    const firstAttemptAt = Date.parse(h.webhooks.attempts(pending.id)[0]!.created_at);
    expect(row.status).toBe('pending');
    // The schedule alone would retry after 50 ms; Retry-After pushes it to at least 2 s after the answer.
    expect(row.next_attempt_at! - firstAttemptAt).toBeGreaterThanOrEqual(2000);
    await waitFor(() => h.delivery(run.id)?.status === 'succeeded', 'the retry');
    const attempts = h.webhooks.attempts(pending.id);
    expect(Date.parse(attempts[1]!.created_at)).toBeGreaterThanOrEqual(row.next_attempt_at!);
  });

  it('refuses a loopback target when private targets are not allowed, without connecting', async () => {
    const h = harness({ config: { 'webhooks.allow_private_targets': false, 'webhooks.retry_schedule_s': '0,0.05,0.05' } });
    h.worker().start();
    const literal = h.finishRun('succeeded', `https://127.0.0.1:${receiver.port}/hook`);
    const named = h.finishRun('succeeded', `https://localhost:${receiver.port}/hook`);
    const plain = h.finishRun('succeeded', receiver.url());
    for (const run of [literal, named, plain]) {
      const delivery = await waitFor(() => (h.delivery(run.id)?.status === 'failed' ? h.delivery(run.id) : undefined), 'the refusal');
      // A refused target stays refused: no retries.
      expect(delivery.attempts).toBe(1);
      expect(delivery.last_status_code).toBeNull();
    }
    expect(h.delivery(literal.id)!.last_error).toMatch(/127\.0\.0\.1.*loopback, private or link-local/);
    expect(h.delivery(named.id)!.last_error).toMatch(/localhost.*loopback, private or link-local/);
    expect(h.delivery(plain.id)!.last_error).toMatch(/must use https/);
    expect(receiver.requests).toHaveLength(0);
  });

  it('does not follow redirects: a 3xx is a failed attempt', async () => {
    const h = harness({ config: { 'webhooks.retry_schedule_s': '0' } });
    receiver.reply = (req) => (req.path === '/hook' ? { status: 302, headers: { location: receiver.url('/elsewhere') } } : { status: 200 });
    h.worker().start();
    const run = h.finishRun('succeeded', receiver.url());
    const delivery = await waitFor(() => (h.delivery(run.id)?.status === 'failed' ? h.delivery(run.id) : undefined), 'the failed attempt');
    expect(delivery.last_status_code).toBe(302);
    expect(delivery.last_error).toMatch(/redirects are not followed/);
    expect(receiver.requests.map((r) => r.path)).toEqual(['/hook']);
  });

  it('delivers what a previous process left pending in the database file', async () => {
    const first = harness();
    const run = first.finishRun('succeeded', receiver.url());
    expect(first.delivery(run.id)!.status).toBe('pending');
    await first.close();
    harnesses.splice(harnesses.indexOf(first), 1);

    const second = harness();
    second.worker().start();
    const delivery = await waitFor(() => (second.delivery(run.id)?.status === 'succeeded' ? second.delivery(run.id) : undefined), 'the delivery');
    expect(receiver.requests).toHaveLength(1);
    expect(receiver.requests[0]!.headers['webhook-id']).toBe(delivery.event_id);
    expect(verify(second.secrets.current(second.orgId).secret, receiver.requests[0]!)).toMatchObject({ data: { task_id: run.id } });
  });

  it('close() waits for the attempt in flight, records it, and can be called twice', async () => {
    const h = harness();
    receiver.reply = () => ({ status: 200, delayMs: 300 });
    const worker = h.worker();
    worker.start();
    const run = h.finishRun('succeeded', receiver.url());
    await waitFor(() => receiver.requests[0], 'the request to arrive');
    const closing = worker.close();
    expect(worker.close()).toBe(closing);
    await closing;
    expect(h.delivery(run.id)).toMatchObject({ status: 'succeeded', attempts: 1 });
  });

  it('sends one event at most once at a time even with two workers on the database', async () => {
    const h = harness();
    const other = harness();
    receiver.reply = () => ({ status: 200, delayMs: 50 });
    const runs = Array.from({ length: 20 }, () => h.finishRun('succeeded', receiver.url()));
    h.worker({ concurrency: 4 }).start();
    other.worker({ concurrency: 4 }).start();
    await waitFor(() => runs.every((r) => h.delivery(r.id)?.status === 'succeeded'), 'every delivery');
    expect(receiver.requests).toHaveLength(20);
    expect(new Set(receiver.requests.map((r) => r.headers['webhook-id'])).size).toBe(20);
  });
});
