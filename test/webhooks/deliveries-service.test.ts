import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { NotFoundError } from '../../src/errors.js';
import { DeliveriesService } from '../../src/webhooks/deliveries-service.js';
import { tempDir } from '../fixtures/temp-dir.js';
import { Harness, Receiver, waitFor } from './harness.js';

describe('DeliveriesService', () => {
  let dir: ReturnType<typeof tempDir>;
  let receiver: Receiver;
  let h: Harness;
  let service: DeliveriesService;

  beforeEach(async () => {
    dir = tempDir();
    receiver = await Receiver.start();
    h = new Harness(dir.path, { config: { 'webhooks.retry_schedule_s': '0' } });
    service = new DeliveriesService({ store: h.webhooks, clock: systemClock, events: h.events });
  });

  afterEach(async () => {
    await h.close();
    await receiver.close();
    dir.remove();
  });

  it('lists deliveries newest first, by run and failed only', async () => {
    receiver.reply = (req) => ({ status: req.path === '/bad' ? 500 : 200 });
    h.worker().start();
    const ok = h.finishRun('succeeded', receiver.url('/good'));
    const bad = h.finishRun('failed', receiver.url('/bad'));
    await waitFor(() => [ok, bad].every((r) => h.delivery(r.id)?.status !== 'pending'), 'both deliveries to finish');

    const all = service.list(h.orgId);
    expect(all.items.map((d) => d.run_id)).toEqual([bad.id, ok.id]);
    expect(all.items[0]).toMatchObject({ object: 'webhook_delivery', event: 'run.failed', status: 'failed', attempts: 1, last_status_code: 500 });
    expect(all.items[0]!.id).toMatch(/^whd_/);
    expect(service.list(h.orgId, { runId: ok.id }).items.map((d) => d.event)).toEqual(['run.completed']);
    expect(service.list(h.orgId, { failedOnly: true }).items.map((d) => d.run_id)).toEqual([bad.id]);
    const firstPage = service.list(h.orgId, { limit: 1 });
    expect(firstPage.hasMore).toBe(true);
    expect(service.list(h.orgId, { limit: 1, cursor: firstPage.items[0]!.id }).items.map((d) => d.run_id)).toEqual([ok.id]);
    expect(service.list('org_someoneelse').items).toEqual([]);
  });

  it('shows one delivery with its payload and attempt log', async () => {
    h.worker().start();
    const run = h.finishRun('succeeded', receiver.url());
    await waitFor(() => h.delivery(run.id)?.status === 'succeeded', 'the delivery');
    const detail = service.get(h.orgId, h.delivery(run.id)!.id);
    expect(detail.payload).toEqual({ event: 'run.completed', livemode: true, data: { task_id: run.id, status: 'succeeded', result: { answer: 42 } } });
    expect(detail.attempt_log).toEqual([expect.objectContaining({ attempt: 1, status_code: 200, error: null })]);
    expect(() => service.get(h.orgId, 'whd_01jd0000000000000000000000')).toThrow(NotFoundError);
  });

  it('redelivers a failed event once, now, with the same webhook-id', async () => {
    receiver.reply = (_req, i) => ({ status: i === 0 ? 500 : 200 });
    h.worker().start();
    const run = h.finishRun('succeeded', receiver.url());
    const failed = await waitFor(() => (h.delivery(run.id)?.status === 'failed' ? h.delivery(run.id) : undefined), 'the failure');

    const again = service.redeliver(h.orgId, failed.id);
    expect(again.status).toBe('pending');
    await waitFor(() => h.delivery(run.id)?.status === 'succeeded', 'the redelivery');
    expect(receiver.requests.map((r) => r.headers['webhook-id'])).toEqual([failed.event_id, failed.event_id]);
    expect(service.get(h.orgId, failed.id).attempt_log.map((a) => a.status_code)).toEqual([500, 200]);
  });

  it('a redelivery that fails again does not restart the retry schedule', async () => {
    await h.close();
    h = new Harness(dir.path, { config: { 'webhooks.retry_schedule_s': '0,0.05' } });
    service = new DeliveriesService({ store: h.webhooks, clock: systemClock, events: h.events });
    receiver.reply = () => ({ status: 500 });
    h.worker().start();
    const run = h.finishRun('succeeded', receiver.url());
    const failed = await waitFor(() => (h.delivery(run.id)?.status === 'failed' ? h.delivery(run.id) : undefined), 'the failure');
    expect(failed.attempts).toBe(2);
    service.redeliver(h.orgId, failed.id);
    await waitFor(() => (h.delivery(run.id)?.attempts === 3 ? true : undefined), 'the third attempt');
    expect(h.delivery(run.id)).toMatchObject({ status: 'failed', attempts: 3 });
  });

  it('answers 404 for a delivery of another organisation', () => {
    const run = h.finishRun('succeeded', receiver.url());
    const id = h.delivery(run.id)!.id;
    expect(() => service.redeliver('org_01jd0000000000000000000000', id)).toThrow(NotFoundError);
  });
});
