/**
 * HTTP API throughput and latency on loopback, each beside a bare Fastify hello-world measured in the same round:
 *   npm run build && npx tsx bench/api.ts [seconds=2] [connections=50] [rounds=15]
 * Every server runs as a child process, so that autocannon (in this process) does not share its event loop:
 * a bare Fastify answering `GET /`, and the compiled daemon (`bin/errandd`) on a fresh data directory with its
 * defaults, except the two limits that would otherwise refuse a benchmark (pending runs, requests per minute).
 *
 * The daemon's model endpoint is a loopback server that accepts connections and never answers, as a model that
 * takes its time would: the engine claims the first run and holds it (so GET polls a `running` run), and every run
 * POSTed after it waits `queued`. That is the API's steady state under load, when runs arrive faster than a model
 * finishes them. A second daemon without any model key shows the other extreme, where the engine claims and fails
 * each POSTed run at once, in the same process: printed for comparison, without a target.
 *
 * The machines this runs on are noisy, and their speed drifts over tens of seconds, so the targets are measured in
 * many short interleaved rounds (bare, GET, POST, and again), each ratio taken against the bare hello-world of its
 * own round, a few seconds earlier, and the medians are what count. Every measurement opens its connections anew
 * and runs a warm-up first (2 s in the first round, 1 s after, when the servers' code is already optimised).
 * Each measurement has an API key of its own, minted on the data directory: the per-key request rate (at most
 * limits.requests_per_minute, a million) would otherwise run dry over the rounds and answer part of the load with
 * 429s, which cost less than the answers measured. Runs POSTed pile up queued behind the held one: a last round
 * may reach limits.max_pending_runs (a million), and its refusals show as non-2xx; the medians do not rest on it.
 * Targets (issue 2): GET /v1/runs/{id} at >= 50% of the bare hello-world's requests/s, POST /v1/runs at >= 25%.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { startHangingModel, type HangingModel } from '../test/fixtures/hanging-model.js';
import { startChild, stopChild, type Child } from './child-process.js';
import { withDataDirectory } from '../src/admin-services.js';
import { keyOf, startErrandd, stopErrandd, type Errandd } from './errandd.js';

const BARE_SERVER = `
import Fastify from 'fastify';
const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write('listening on ' + address + '\\n');
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
`;

const POST_BODY = JSON.stringify({ prompt: 'Find the opening hours of {{place}}', inputs: { place: 'the library' } });

export interface Measurement {
  name: string;
  requestsPerSecond: number;
  /** CPU time the server process spent per request (Linux; NaN elsewhere): steadier than req/s on a busy machine. */
  cpuMsPerRequest: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

export interface Round {
  bare: Measurement;
  getRun: Measurement;
  postRun: Measurement;
}

export interface ApiBenchResult {
  rounds: Round[];
  /** POST against the daemon without a model key, whose engine fails each run at once. */
  postEngineFailing: Measurement;
  bareForFailing: Measurement;
}

interface Daemon extends Errandd {
  headers: Record<string, string>;
}

async function startDaemon(env: Record<string, string>): Promise<Daemon> {
  const d = await startErrandd({ env });
  return { ...d, headers: headersOf(keyOf(d)) };
}

function headersOf(key: string): Record<string, string> {
  return { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
}

/** A new key of the daemon's default organisation, with a full request budget. */
function freshHeaders(d: Daemon): Promise<Record<string, string>> {
  return withDataDirectory(d.home, process.env, ({ orgs, keys }) => headersOf(keys.create({ orgId: orgs.resolve('default').id }).key));
}

/** User plus system CPU time of a process in ms, from /proc (clock ticks are 10 ms on Linux). */
function cpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

async function measure(name: string, server: Child, options: autocannon.Options, warmupSeconds: number): Promise<Measurement> {
  await autocannon({ ...options, duration: warmupSeconds });
  const before = cpuMs(server.proc.pid);
  const r = await autocannon(options);
  const cpu = cpuMs(server.proc.pid) - before;
  return {
    name,
    requestsPerSecond: r.requests.average,
    cpuMsPerRequest: cpu / r.requests.total,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
  };
}

async function until<T>(what: string, fn: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await fn();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function runApiBench(seconds = 2, connections = 50, rounds = 15): Promise<ApiBenchResult> {
  const common = { connections, duration: seconds, pipelining: 1 };
  const firstWarmup = Math.min(2, seconds);
  let bare: Child | null = null;
  let model: HangingModel | null = null;
  let daemon: Daemon | null = null;
  let failing: Daemon | null = null;
  try {
    bare = await startChild(['--input-type=module', '-e', BARE_SERVER], process.env);
    model = await startHangingModel();
    daemon = await startDaemon(model.env);
    const { url, headers } = daemon;

    const created = await fetch(`${url}/v1/runs`, { method: 'POST', headers, body: JSON.stringify({ prompt: 'bench' }) });
    if (created.status !== 202) throw new Error(`POST /v1/runs answered ${created.status}: ${await created.text()}`);
    const runId = ((await created.json()) as { task_id: string }).task_id;
    await until('the first run to be claimed', async () => {
      const run = (await (await fetch(`${url}/v1/runs/${runId}`, { headers })).json()) as { status: string };
      if (run.status !== 'queued' && run.status !== 'running') throw new Error(`the polled run ended as ${run.status}`);
      return run.status === 'running' ? run : undefined;
    });

    const result: Round[] = [];
    for (let i = 0; i < rounds; i++) {
      const warmup = i === 0 ? firstWarmup : Math.min(1, seconds);
      result.push({
        bare: await measure('bare Fastify GET /', bare, { ...common, url: `${bare.listening}/` }, warmup),
        getRun: await measure('GET /v1/runs/{id}', daemon, { ...common, url: `${url}/v1/runs/${runId}`, headers: await freshHeaders(daemon) }, warmup),
        // No idempotency_key: every request creates a run.
        postRun: await measure('POST /v1/runs', daemon, { ...common, url: `${url}/v1/runs`, method: 'POST', headers: await freshHeaders(daemon), body: POST_BODY }, warmup),
      });
    }

    failing = await startDaemon({});
    const bareForFailing = await measure('bare Fastify GET /', bare, { ...common, url: `${bare.listening}/` }, firstWarmup);
    const postEngineFailing = await measure(
      'POST, engine failing',
      failing,
      { ...common, url: `${failing.url}/v1/runs`, method: 'POST', headers: failing.headers, body: POST_BODY },
      firstWarmup,
    );
    return { rounds: result, postEngineFailing, bareForFailing };
  } finally {
    if (failing) await stopErrandd(failing);
    // The model first: the run it holds then fails at once, instead of holding the daemon's stop for its grace period.
    await model?.close();
    if (daemon) await stopErrandd(daemon);
    if (bare) await stopChild(bare);
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function row(m: Measurement, ratio: string): string {
  const cells = [
    m.name.padEnd(22),
    m.requestsPerSecond.toFixed(0).padStart(8),
    m.p50Ms.toFixed(1).padStart(8),
    m.p99Ms.toFixed(1).padStart(8),
    m.cpuMsPerRequest.toFixed(3).padStart(11),
    ratio.padStart(16),
  ];
  const problems = m.non2xx + m.errors > 0 ? `  (${m.non2xx} non-2xx, ${m.errors} errors)` : '';
  return `  ${cells.join('  ')}${problems}`;
}

const HEADER = `  ${'target'.padEnd(22)}  ${'req/s'.padStart(8)}  ${'p50 ms'.padStart(8)}  ${'p99 ms'.padStart(8)}  ${'cpu ms/req'.padStart(11)}  ${'req/s of bare'.padStart(16)}`;
const pct = (ratio: number) => `${(ratio * 100).toFixed(0)}%`;

export function printApiBench(r: ApiBenchResult, seconds: number, connections: number): void {
  console.log(`api bench: ${r.rounds.length} interleaved rounds of ${seconds} s per target, ${connections} connections, loopback`);
  console.log(`  ${'round'.padStart(5)}  ${'bare req/s'.padStart(10)}  ${'GET req/s'.padStart(10)}  ${'of bare'.padStart(7)}  ${'POST req/s'.padStart(10)}  ${'of bare'.padStart(7)}`);
  r.rounds.forEach((round, i) => {
    const cells = [
      String(i + 1).padStart(5),
      round.bare.requestsPerSecond.toFixed(0).padStart(10),
      round.getRun.requestsPerSecond.toFixed(0).padStart(10),
      pct(round.getRun.requestsPerSecond / round.bare.requestsPerSecond).padStart(7),
      round.postRun.requestsPerSecond.toFixed(0).padStart(10),
      pct(round.postRun.requestsPerSecond / round.bare.requestsPerSecond).padStart(7),
    ];
    const problems = [round.bare, round.getRun, round.postRun].some((m) => m.non2xx + m.errors > 0) ? '  (non-2xx or errors: see the medians)' : '';
    console.log(`  ${cells.join('  ')}${problems}`);
  });

  const getRatio = median(r.rounds.map((x) => x.getRun.requestsPerSecond / x.bare.requestsPerSecond));
  const postRatio = median(r.rounds.map((x) => x.postRun.requestsPerSecond / x.bare.requestsPerSecond));
  const med = (pick: (x: Round) => Measurement, name: string): Measurement => {
    const ms = r.rounds.map(pick);
    const m = (f: (x: Measurement) => number) => median(ms.map(f));
    return {
      name,
      requestsPerSecond: m((x) => x.requestsPerSecond),
      cpuMsPerRequest: m((x) => x.cpuMsPerRequest),
      p50Ms: m((x) => x.p50Ms),
      p99Ms: m((x) => x.p99Ms),
      non2xx: ms.reduce((n, x) => n + x.non2xx, 0),
      errors: ms.reduce((n, x) => n + x.errors, 0),
    };
  };
  const verdict = (ratio: number, target: number) => `${(ratio * 100).toFixed(1)}% ${ratio >= target ? 'ok' : 'MISSED'} (>= ${target * 100}%)`;
  console.log('medians over the rounds (each ratio against its own round\'s bare)');
  console.log(HEADER);
  console.log(row(med((x) => x.bare, 'bare Fastify GET /'), ''));
  console.log(row(med((x) => x.getRun, 'GET /v1/runs/{id}'), verdict(getRatio, 0.5)));
  console.log(row(med((x) => x.postRun, 'POST /v1/runs'), verdict(postRatio, 0.25)));

  console.log('for comparison, a daemon without a model key, whose engine claims and fails each POSTed run at once');
  console.log(HEADER);
  console.log(row(r.bareForFailing, ''));
  console.log(row(r.postEngineFailing, pct(r.postEngineFailing.requestsPerSecond / r.bareForFailing.requestsPerSecond)));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const seconds = Number(process.argv[2] ?? 2);
  const connections = Number(process.argv[3] ?? 50);
  const rounds = Number(process.argv[4] ?? 15);
  printApiBench(await runApiBench(seconds, connections, rounds), seconds, connections);
}
