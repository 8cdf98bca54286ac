/**
 * How one organisation's costly schemas affect another's polls (#10):
 *   npm run build && npx tsx bench/schemas.ts [seconds=5] [connections=10] [rounds=3]
 * The compiled daemon (`bin/errandd`, no model key: runs fail at once) serves two organisations. Organisation B
 * polls one of its runs with autocannon; organisation A meanwhile sends, one after the other, requests whose schema
 * work is as costly as a caller can make it: inputs checked against an input_schema that takes far longer than the
 * time budget (`limits.schema_check_ms`, refused with 400 schema_too_complex once it runs out), and an output_schema
 * with a 50,000-value enum (389 KB, refused by the bounds). Each round measures B's polls alone (the baseline) and
 * then during A's requests; the figures that count are B's latency and throughput during A's requests as ratios of
 * the baseline of the same round, and their medians over the rounds.
 */
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { systemClock } from '../src/clock.js';
import { createIdFactory } from '../src/ids.js';
import { KeysService } from '../src/keys/keys-service.js';
import { OrgsService } from '../src/orgs/orgs-service.js';
import { dataPaths } from '../src/runtime/paths.js';
import { openStore } from '../src/store/store.js';
import { keyOf, startErrandd, stopErrandd, type Errandd } from './errandd.js';

function createOrgWithKey(home: string, name: string): string {
  const store = openStore(dataPaths(home).database);
  try {
    const r = { store, clock: systemClock, ids: createIdFactory() };
    const org = new OrgsService(r).create(name, { dailyCapUsd: null });
    return new KeysService(r).create({ orgId: org.id, monthlyCapUsd: null }).key;
  } finally {
    store.close();
  }
}

async function api(d: Errandd, key: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${d.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

interface PollFigures {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  non2xx: number;
}

async function poll(url: string, key: string, seconds: number, connections: number): Promise<PollFigures> {
  const r = await autocannon({ url, connections, duration: seconds, headers: { authorization: `Bearer ${key}` } });
  return { requestsPerSecond: r.requests.average, p50Ms: r.latency.p50, p99Ms: r.latency.p99, maxMs: r.latency.max, non2xx: r.non2xx };
}

/** Organisation A's costly requests, one after the other until `stop`; answers their statuses and error codes. */
async function costlyRequests(d: Errandd, jobId: string, stop: { done: boolean }): Promise<string[]> {
  const inputs = { xs: new Array(400_000).fill(0) };
  const bigEnum = { type: 'object', properties: { city: { enum: Array.from({ length: 50_000 }, (_, i) => `city number ${i}`) } } };
  const seen: string[] = [];
  for (let i = 0; !stop.done; i++) {
    const res = i % 2 === 0 ? await api(d, keyOf(d), 'POST', `/v1/jobs/${jobId}/runs`, { inputs }) : await api(d, keyOf(d), 'POST', '/v1/runs', { prompt: 'p', output_schema: bigEnum });
    seen.push(`${res.status} ${res.body.error?.code ?? ''}`.trim());
  }
  return seen;
}

interface Round {
  baseline: PollFigures;
  during: PollFigures;
  costly: string[];
}

export async function runSchemaBench(seconds = 5, connections = 10, rounds = 3): Promise<Round[]> {
  const d = await startErrandd();
  try {
    const pollerKey = createOrgWithKey(d.home, 'poller');
    const run = await api(d, pollerKey, 'POST', '/v1/runs', { prompt: 'polled' });
    const pollUrl = `${d.url}/v1/runs/${run.body.task_id}`;
    const project = (await api(d, keyOf(d), 'GET', '/v1/projects')).body.data[0].id;
    // Every item fails 100 branches of the anyOf before the last: 400,000 items cost far more than the budget.
    const branches = Array.from({ length: 100 }, (_, i) => ({ type: 'integer', minimum: 10 * i + 1_000_000, maximum: 10 * i + 1_000_005 }));
    const job = await api(d, keyOf(d), 'POST', '/v1/jobs', {
      project_id: project,
      name: 'costly',
      prompt: 'p',
      input_schema: { type: 'object', properties: { xs: { type: 'array', items: { anyOf: [...branches, { type: 'integer' }] } } } },
    });
    if (job.status !== 201) throw new Error(`POST /v1/jobs answered ${job.status}: ${JSON.stringify(job.body)}`);
    await poll(pollUrl, pollerKey, 1, connections);

    const result: Round[] = [];
    for (let i = 0; i < rounds; i++) {
      const baseline = await poll(pollUrl, pollerKey, seconds, connections);
      const stop = { done: false };
      const costly = costlyRequests(d, job.body.id, stop);
      const during = await poll(pollUrl, pollerKey, seconds, connections);
      stop.done = true;
      result.push({ baseline, during, costly: await costly });
    }
    return result;
  } finally {
    await stopErrandd(d);
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const ratio = (during: number, base: number) => (base === 0 ? 'n/a' : `${(during / base).toFixed(2)}x`);

export function printSchemaBench(rounds: Round[], seconds: number, connections: number): void {
  console.log(`schema bench: another organisation's GET /v1/runs/{id} (${connections} connections, ${seconds} s per measurement) alone, then during costly schema requests`);
  console.log('  round  base req/s  during req/s  of base  base p99 ms  during p99 ms  of base  during max ms  costly requests answered');
  rounds.forEach((r, i) => {
    const counts = new Map<string, number>();
    for (const c of r.costly) counts.set(c, (counts.get(c) ?? 0) + 1);
    const answered = [...counts].map(([what, n]) => `${n} x ${what}`).join(', ');
    console.log(
      `  ${String(i + 1).padStart(5)}  ${r.baseline.requestsPerSecond.toFixed(0).padStart(10)}  ${r.during.requestsPerSecond.toFixed(0).padStart(12)}  ` +
        `${ratio(r.during.requestsPerSecond, r.baseline.requestsPerSecond).padStart(7)}  ${r.baseline.p99Ms.toFixed(1).padStart(11)}  ` +
        `${r.during.p99Ms.toFixed(1).padStart(13)}  ${ratio(r.during.p99Ms, r.baseline.p99Ms).padStart(7)}  ${r.during.maxMs.toFixed(0).padStart(13)}  ${answered}` +
        (r.baseline.non2xx + r.during.non2xx > 0 ? `  (${r.baseline.non2xx + r.during.non2xx} polls not 2xx)` : ''),
    );
  });
  const of = (pick: (f: PollFigures) => number) => median(rounds.map((r) => (pick(r.baseline) === 0 ? 1 : pick(r.during) / pick(r.baseline))));
  console.log(
    `medians over the rounds (each against its own round's baseline): polls during costly schema requests at ${of((f) => f.requestsPerSecond).toFixed(2)}x ` +
      `the baseline's req/s, p99 latency ${of((f) => f.p99Ms).toFixed(2)}x the baseline's`,
  );
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const seconds = Number(process.argv[2] ?? 5);
  const connections = Number(process.argv[3] ?? 10);
  const rounds = Number(process.argv[4] ?? 3);
  printSchemaBench(await runSchemaBench(seconds, connections, rounds), seconds, connections);
}
