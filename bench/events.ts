/**
 * Live events: how soon a run's transition reaches a client subscribed to GET /v1/events, and how many events per
 * second reach 100 concurrent subscribers, beside the webhook path measured in the same run:
 *   npm run build && npx tsx bench/events.ts [runs=200] [subscribers=100]
 *
 * The compiled daemon (`bin/errandd`) runs as a child process on a fresh data directory, without a model key, so
 * its engine claims and fails each run at once: a run makes four events (queued, running, failed, run.failed) and
 * one webhook, whose delivery is a fifth event (webhook.attempted), as fast as the daemon can make them. Subscribers and the webhook receiver are in this process.
 * Latency is from the event's `created_at` (the daemon's clock, when its transaction appended it) to the moment a
 * subscriber parsed it; the webhook's is from the same run's `run.failed` event to the request reaching the
 * receiver. Both are whole milliseconds (the log's timestamps are).
 *
 * "paced": one subscriber, runs created one at a time, each after the last one's webhook arrived: the latency of
 * an idle daemon. "fan-out": `subscribers` clients, runs created 8 at a time: events per second delivered in total
 * and the latency under that load.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { createParser } from 'eventsource-parser';
import { keyOf, startErrandd, stopErrandd, type Errandd } from './errandd.js';

interface Subscriber {
  /** Latency of each event, ms. */
  latencies: number[];
  received: number;
  close(): void;
}

async function subscribe(d: Errandd, onEvent: (type: string, data: any, createdAtMs: number) => void = () => undefined): Promise<Subscriber> {
  const abort = new AbortController();
  const res = await fetch(`${d.url}/v1/events`, { headers: { authorization: `Bearer ${keyOf(d)}`, accept: 'text/event-stream' }, signal: abort.signal });
  if (res.status !== 200 || res.body === null) throw new Error(`GET /v1/events answered ${res.status}`);
  const sub: Subscriber = { latencies: [], received: 0, close: () => abort.abort() };
  const parser = createParser({
    onEvent: (m) => {
      const now = Date.now();
      const event = JSON.parse(m.data) as { created_at: string; data: unknown };
      const createdAt = Date.parse(event.created_at);
      sub.latencies.push(now - createdAt);
      sub.received += 1;
      onEvent(m.event ?? 'message', event.data, createdAt);
    },
  });
  void (async () => {
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        parser.feed(value);
      }
    } catch {
      // Closed by the bench.
    }
  })();
  return sub;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

export interface EventsBenchResult {
  pacedEventP50Ms: number;
  pacedEventP99Ms: number;
  pacedWebhookP50Ms: number;
  pacedWebhookP99Ms: number;
  fanOutEventsPerSecond: number;
  fanOutEventP50Ms: number;
  fanOutEventP99Ms: number;
  fanOutWebhookP50Ms: number;
  fanOutWebhookP99Ms: number;
}

export async function runEventsBench(runs = 200, subscribers = 100): Promise<EventsBenchResult> {
  const d = await startErrandd({ dev: true, env: { ERRAND_LOG_LEVEL: 'warn' } });
  // The webhook receiver: when each run's webhook arrived.
  const webhookAt = new Map<string, number>();
  let onWebhook: (runId: string) => void = () => undefined;
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const runId = (JSON.parse(body) as { data: { task_id: string } }).data.task_id;
      webhookAt.set(runId, Date.now());
      res.writeHead(204).end();
      onWebhook(runId);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const failedAt = new Map<string, number>();
  const webhookLatencies = (ids: Iterable<string>) => [...ids].map((id) => webhookAt.get(id)! - failedAt.get(id)!);

  const createRun = async (): Promise<string> => {
    const res = await fetch(`${d.url}/v1/runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keyOf(d)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'bench', callback_url: callbackUrl }),
    });
    if (res.status !== 202) throw new Error(`POST /v1/runs answered ${res.status}: ${await res.text()}`);
    return ((await res.json()) as { task_id: string }).task_id;
  };
  const webhookOf = (runId: string) =>
    new Promise<void>((resolve) => {
      if (webhookAt.has(runId)) return resolve();
      const previous = onWebhook;
      onWebhook = (id) => {
        previous(id);
        if (id === runId) resolve();
      };
    });

  try {
    // Paced: one subscriber, one run at a time.
    const recordFailed = (type: string, data: any, createdAt: number) => {
      if (type === 'run.failed') failedAt.set(data.task_id, createdAt);
    };
    const watcher = await subscribe(d, recordFailed);
    const pacedIds: string[] = [];
    for (let i = 0; i < Math.min(runs, 100); i++) {
      const id = await createRun();
      pacedIds.push(id);
      await webhookOf(id);
      while (!failedAt.has(id)) await new Promise((resolve) => setTimeout(resolve, 1));
    }
    const paced = { events: [...watcher.latencies], webhooks: webhookLatencies(pacedIds) };
    watcher.close();

    // Fan-out: many subscribers, runs created 8 at a time.
    let expected = 0;
    let allIn: () => void = () => undefined;
    const clients: Subscriber[] = [];
    for (let i = 0; i < subscribers; i++) {
      clients.push(
        await subscribe(d, (type, data, createdAt) => {
          if (i === 0) recordFailed(type, data, createdAt);
          if (expected > 0 && clients.reduce((n, c) => n + c.received, 0) >= expected) allIn();
        }),
      );
    }
    const start = Date.now();
    const fanIds: string[] = [];
    for (let i = 0; i < runs; i += 8) fanIds.push(...(await Promise.all(Array.from({ length: Math.min(8, runs - i) }, createRun))));
    // Five events per run, to every subscriber.
    expected = runs * 5 * subscribers;
    await new Promise<void>((resolve) => {
      allIn = resolve;
      if (clients.reduce((n, c) => n + c.received, 0) >= expected) resolve();
    });
    const seconds = (Date.now() - start) / 1000;
    await Promise.all(fanIds.map(webhookOf));
    const fanLatencies = clients.flatMap((c) => c.latencies);
    for (const c of clients) c.close();

    const result: EventsBenchResult = {
      pacedEventP50Ms: percentile(paced.events, 50),
      pacedEventP99Ms: percentile(paced.events, 99),
      pacedWebhookP50Ms: percentile(paced.webhooks, 50),
      pacedWebhookP99Ms: percentile(paced.webhooks, 99),
      fanOutEventsPerSecond: expected / seconds,
      fanOutEventP50Ms: percentile(fanLatencies, 50),
      fanOutEventP99Ms: percentile(fanLatencies, 99),
      fanOutWebhookP50Ms: percentile(webhookLatencies(fanIds), 50),
      fanOutWebhookP99Ms: percentile(webhookLatencies(fanIds), 99),
    };
    console.log(`events bench: compiled daemon, ${runs} runs (5 events and 1 webhook each), loopback subscribers and receiver`);
    console.log(
      `  paced, 1 subscriber (${paced.events.length} events): transition -> subscriber p50 ${result.pacedEventP50Ms} ms, p99 ${result.pacedEventP99Ms} ms;` +
        ` webhook path (run.failed -> receiver) p50 ${result.pacedWebhookP50Ms} ms, p99 ${result.pacedWebhookP99Ms} ms`,
    );
    console.log(
      `  fan-out, ${subscribers} subscribers: ${Math.round(result.fanOutEventsPerSecond)} events/s delivered in total (${Math.round(result.fanOutEventsPerSecond / subscribers)} per subscriber);` +
        ` transition -> subscriber p50 ${result.fanOutEventP50Ms} ms, p99 ${result.fanOutEventP99Ms} ms; webhook path p50 ${result.fanOutWebhookP50Ms} ms, p99 ${result.fanOutWebhookP99Ms} ms`,
    );
    return result;
  } finally {
    await stopErrandd(d);
    receiver.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runEventsBench(Number(process.argv[2] ?? 200), Number(process.argv[3] ?? 100));
}
