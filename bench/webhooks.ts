/**
 * Webhook delivery throughput and latency against a loopback receiver:
 *   node --import tsx bench/webhooks.ts [events=2000] [concurrency=8]
 * "burst" enqueues every event at once (deliveries per second); "paced" enqueues at a steady rate below that
 * and measures enqueue-to-arrival latency, which is what a receiver waiting for a run's webhook sees.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { pino } from 'pino';
import { systemClock, isoTime } from '../src/clock.js';
import { loadConfig } from '../src/config/load.js';
import { EventAnnouncer } from '../src/event-log/event-announcer.js';
import { EventLog } from '../src/event-log/event-log.js';
import { webhookBody } from '../src/event-log/webhook-body.js';
import { EventBus } from '../src/events.js';
import { createIdFactory } from '../src/ids.js';
import { readNetwork } from '../src/network/network.js';
import { OrgsService } from '../src/orgs/orgs-service.js';
import { loadMasterKey } from '../src/secrets/master-key.js';
import { SecretBox } from '../src/secrets/secret-box.js';
import { openStore } from '../src/store/store.js';
import type { UnitOfWork } from '../src/store/unit-of-work.js';
import { DeliveryWorker } from '../src/webhooks/delivery-worker.js';
import { WebhookOutbox } from '../src/webhooks/outbox.js';
import { SigningSecrets } from '../src/webhooks/signing-secrets.js';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

export interface WebhooksBenchResult {
  deliveriesPerSecond: number;
  burstP50Ms: number;
  burstP99Ms: number;
  pacedP50Ms: number;
  pacedP99Ms: number;
}

export async function runWebhooksBench(events = 2000, concurrency = 8): Promise<WebhooksBenchResult> {
  const home = mkdtempSync(join(tmpdir(), 'errand-bench-'));
  const enqueuedAt = new Map<string, number>();
  const latencies: number[] = [];
  let arrived = 0;
  let onArrival: () => void = () => undefined;

  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const sent = enqueuedAt.get(String(req.headers['webhook-id']));
      if (sent !== undefined) latencies.push(performance.now() - sent);
      arrived++;
      res.writeHead(204).end();
      onArrival();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;

  const config = loadConfig({ home, env: {}, flags: { 'webhooks.allow_private_targets': true } });
  const store = openStore(join(home, 'errand.db'));
  const webhooks = store.webhooks;
  const ids = createIdFactory();
  const bus = new EventBus();
  const orgId = new OrgsService({ store, clock: systemClock, ids }).create('bench').id;
  const secrets = new SigningSecrets({ store, box: new SecretBox(loadMasterKey({ home, env: {} })), clock: systemClock, signer: 'org' });
  const outbox = new WebhookOutbox({ store: webhooks, clock: systemClock, ids, events: bus, retryScheduleS: config['webhooks.retry_schedule_s'] });
  const worker = new DeliveryWorker({
    store,
    signingSecrets: (org) => secrets.signingSecrets(org),
    clock: systemClock,
    logger: pino({ level: 'silent' }),
    events: bus,
    announcer: new EventAnnouncer({ log: new EventLog({ store: store.events, clock: systemClock, events: bus }), webhooks: outbox, store, ids }),
    config,
    guard: (await readNetwork(config)).guard,
    concurrency,
  });
  worker.start();

  const payload = webhookBody('run.completed', JSON.stringify({ task_id: 'run_bench', status: 'succeeded', result: { answer: 'x'.repeat(200) }, finished_at: isoTime(Date.now()) }), true);
  const enqueue = (uow: UnitOfWork) => {
    const id = outbox.enqueue(uow, { orgId, runId: null, event: 'run.completed', url, webhookId: ids('evt'), payload, signer: 'org' });
    enqueuedAt.set(webhooks.getDelivery(orgId, id)!.event_id, performance.now());
  };
  const allArrived = (n: number) => new Promise<void>((resolve) => {
    onArrival = () => arrived >= n && resolve();
    onArrival();
  });

  // Burst: the outbox holds everything at once; the worker drains it.
  const burstStart = performance.now();
  store.transaction((uow) => {
    for (let i = 0; i < events; i++) enqueue(uow);
  });
  await allArrived(events);
  const burstS = (performance.now() - burstStart) / 1000;
  const burstLatencies = [...latencies].sort((a, b) => a - b);

  // Paced: one event every few milliseconds, at about half the burst rate.
  latencies.length = 0;
  const paced = Math.min(events, 1000);
  const intervalMs = Math.max(1, (1000 / (events / burstS)) * 2);
  for (let i = 0; i < paced; i++) {
    store.transaction(enqueue);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  await allArrived(events + paced);
  const pacedLatencies = [...latencies].sort((a, b) => a - b);

  await worker.close();
  store.close();
  server.close();
  rmSync(home, { recursive: true, force: true });

  const fmt = (n: number) => n.toFixed(1);
  const result = {
    deliveriesPerSecond: events / burstS,
    burstP50Ms: percentile(burstLatencies, 50),
    burstP99Ms: percentile(burstLatencies, 99),
    pacedP50Ms: percentile(pacedLatencies, 50),
    pacedP99Ms: percentile(pacedLatencies, 99),
  };
  console.log(`webhooks bench: ${events} events, worker concurrency ${concurrency}, loopback receiver`);
  console.log(`  burst: ${fmt(result.deliveriesPerSecond)} deliveries/s; enqueue->arrival p50 ${fmt(result.burstP50Ms)} ms, p99 ${fmt(result.burstP99Ms)} ms`);
  console.log(`  paced (${paced} events, one per ${fmt(intervalMs)} ms): enqueue->arrival p50 ${fmt(result.pacedP50Ms)} ms, p99 ${fmt(result.pacedP99Ms)} ms`);
  return result;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runWebhooksBench(Number(process.argv[2] ?? 2000), Number(process.argv[3] ?? 8));
}
