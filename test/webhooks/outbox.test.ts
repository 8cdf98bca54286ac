import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { webhookBody } from '../../src/event-log/webhook-body.js';
import { tempDir } from '../fixtures/temp-dir.js';
import { Harness, Receiver, waitFor } from './harness.js';

describe('WebhookOutbox', () => {
  let dir: ReturnType<typeof tempDir>;
  let receiver: Receiver;
  const open: Harness[] = [];

  beforeEach(async () => {
    dir = tempDir();
    receiver = await Receiver.start();
  });

  afterEach(async () => {
    for (const h of open.splice(0)) await h.close();
    await receiver.close();
    dir.remove();
  });

  it('announces wake.webhook_enqueued only after the transaction that wrote the event has committed', async () => {
    const h = new Harness(dir.path);
    open.push(h);
    const seen: string[] = [];
    h.events.on('wake.webhook_enqueued', ({ deliveryId }) => seen.push(deliveryId));
    let inside = -1;
    h.store.transaction((uow) => {
      h.outbox.enqueue(uow, { orgId: h.orgId, runId: null, event: 'run.completed', url: receiver.url(), webhookId: h.ids('evt'), payload: webhookBody('run.completed', '{"task_id":"run_x"}', true), signer: 'org' });
      inside = seen.length;
    });
    expect(inside).toBe(0);
    await Promise.resolve();
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatch(/^whd_/);
    expect(h.webhooks.getDelivery(h.orgId, seen[0]!)).toMatchObject({ status: 'pending', attempts: 0, event_type: 'run.completed' });
  });

  it('gives every event its own evt_ id and stores the body it will sign', () => {
    const h = new Harness(dir.path);
    open.push(h);
    const run = h.finishRun('cancelled', receiver.url());
    const row = h.webhooks.getDelivery(h.orgId, h.delivery(run.id)!.id)!;
    expect(row.event_id).toMatch(/^evt_/);
    expect(JSON.parse(row.payload)).toEqual({ event: 'run.cancelled', livemode: true, data: { task_id: run.id, status: 'cancelled', result: null } });
  });

  it('is picked up by a running worker of another process (no shared event bus) on its next poll', async () => {
    const daemon = new Harness(dir.path);
    const cli = new Harness(dir.path);
    open.push(daemon, cli);
    daemon.worker({ pollIntervalMs: 100 }).start();
    const run = cli.finishRun('succeeded', receiver.url());
    await waitFor(() => daemon.delivery(run.id)?.status === 'succeeded', 'the poll to find the event');
    expect(receiver.requests).toHaveLength(1);
  });
});
