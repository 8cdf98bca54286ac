/**
 * HTTP API throughput and latency on loopback, each beside a bare Fastify hello-world measured in the same run:
 *   npx tsc -p . && npx tsx bench/api.ts [seconds=10] [connections=50]
 * Both servers run as child processes (so autocannon, in this process, does not share their event loop): the
 * compiled daemon (`bin/errandd`) with a fresh data directory, and a bare Fastify answering `GET /`. The daemon
 * runs with its defaults except the two limits that would otherwise refuse a benchmark (pending runs and the
 * per-key request rate), and without a model key, so the engine fails each POSTed run at once instead of
 * calling a model: that claim-and-fail is part of what the POST figure pays for.
 * Targets (issue 2): GET /v1/runs/{id} at >= 50% of the bare hello-world's requests/s, POST /v1/runs at >= 25%.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ERRANDD = join(ROOT, 'bin', 'errandd');

const BARE_SERVER = `
import Fastify from 'fastify';
const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write('listening on ' + address + '\\n');
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
`;

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

export interface ApiBenchResult {
  bare: Measurement;
  getRun: Measurement;
  postRun: Measurement;
  getRatio: number;
  postRatio: number;
}

interface Child {
  url: string;
  proc: ChildProcess;
  lines: AsyncIterableIterator<string>;
}

/** Starts a child whose first stdout line is `listening on <url>`. */
async function startChild(args: string[], env: NodeJS.ProcessEnv, stderrFile?: string): Promise<Child> {
  const proc = spawn(process.execPath, args, {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', stderrFile === undefined ? 'inherit' : openSync(stderrFile, 'a')],
  });
  const lines = createInterface({ input: proc.stdout! })[Symbol.asyncIterator]();
  const exited = once(proc, 'exit').then(([code]) => {
    throw new Error(`${args.join(' ')} exited with ${code} before listening`);
  });
  const first = (await Promise.race([lines.next(), exited])) as IteratorResult<string>;
  exited.catch(() => undefined);
  const m = /^listening on (http:\/\/\S+)$/.exec(first.value ?? '');
  if (!m) throw new Error(`unexpected first line: ${first.value}`);
  return { url: m[1]!, proc, lines };
}

async function stopChild(child: Child): Promise<void> {
  if (child.proc.exitCode !== null) return;
  const done = once(child.proc, 'exit');
  child.proc.kill('SIGTERM');
  await done;
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

export async function runApiBench(seconds = 10, connections = 50): Promise<ApiBenchResult> {
  const home = mkdtempSync(join(tmpdir(), 'errand-bench-api-'));
  const common = { connections, duration: seconds, pipelining: 1 };
  const warmup = Math.min(3, seconds);
  let bare: Child | null = null;
  let daemon: Child | null = null;
  try {
    bare = await startChild(['--input-type=module', '-e', BARE_SERVER], process.env);
    daemon = await startChild([ERRANDD, '--port', '0', '--home', home], {
      ...process.env,
      ERRAND_HOME: home,
      ANTHROPIC_API_KEY: '',
      OPENAI_API_KEY: '',
      ERRAND_SANDBOX_DRIVER: 'local',
      ERRAND_LIMITS_MAX_PENDING_RUNS: '1000000',
      ERRAND_LIMITS_REQUESTS_PER_MINUTE: '1000000',
    }, join(home, 'errandd.log'));
    // The first start announces the organisation, then prints its key.
    await daemon.lines.next();
    const key = (await daemon.lines.next()).value as string;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };

    const created = await fetch(`${daemon.url}/v1/runs`, { method: 'POST', headers, body: JSON.stringify({ prompt: 'bench' }) });
    if (created.status !== 202) throw new Error(`POST /v1/runs answered ${created.status}: ${await created.text()}`);
    const runId = ((await created.json()) as { task_id: string }).task_id;

    const bareResult = await measure('bare Fastify GET /', bare, { ...common, url: `${bare.url}/` }, warmup);
    const getRun = await measure('GET /v1/runs/{id}', daemon, { ...common, url: `${daemon.url}/v1/runs/${runId}`, headers }, warmup);
    // No idempotency_key: every request creates a run.
    const postRun = await measure(
      'POST /v1/runs',
      daemon,
      { ...common, url: `${daemon.url}/v1/runs`, method: 'POST', headers, body: JSON.stringify({ prompt: 'Find the opening hours of {{place}}', inputs: { place: 'the library' } }) },
      warmup,
    );
    return {
      bare: bareResult,
      getRun,
      postRun,
      getRatio: getRun.requestsPerSecond / bareResult.requestsPerSecond,
      postRatio: postRun.requestsPerSecond / bareResult.requestsPerSecond,
    };
  } finally {
    if (daemon) await stopChild(daemon);
    if (bare) await stopChild(bare);
    rmSync(home, { recursive: true, force: true });
  }
}

function row(m: Measurement, ratio: string): string {
  const cells = [
    m.name.padEnd(22),
    m.requestsPerSecond.toFixed(0).padStart(8),
    m.p50Ms.toFixed(1).padStart(8),
    m.p99Ms.toFixed(1).padStart(8),
    m.cpuMsPerRequest.toFixed(3).padStart(11),
    ratio.padStart(29),
  ];
  const problems = m.non2xx + m.errors > 0 ? `  (${m.non2xx} non-2xx, ${m.errors} errors)` : '';
  return `  ${cells.join('  ')}${problems}`;
}

export function printApiBench(r: ApiBenchResult, seconds: number, connections: number): void {
  const verdict = (ratio: number, target: number) => `${(ratio * 100).toFixed(0)}% (target >= ${target * 100}%) ${ratio >= target ? 'ok' : 'MISSED'}`;
  console.log(`api bench: ${seconds} s per target, ${connections} connections, loopback`);
  console.log(
    `  ${'target'.padEnd(22)}  ${'req/s'.padStart(8)}  ${'p50 ms'.padStart(8)}  ${'p99 ms'.padStart(8)}  ${'cpu ms/req'.padStart(11)}  ${'req/s of bare'.padStart(29)}`,
  );
  console.log(row(r.bare, ''));
  console.log(row(r.getRun, verdict(r.getRatio, 0.5)));
  console.log(row(r.postRun, verdict(r.postRatio, 0.25)));
  const cpuRatio = (m: Measurement) => `${((r.bare.cpuMsPerRequest / m.cpuMsPerRequest) * 100).toFixed(0)}%`;
  if (Number.isFinite(r.bare.cpuMsPerRequest)) {
    console.log(`  by CPU time per request (less sensitive to other load): GET at ${cpuRatio(r.getRun)} of bare, POST at ${cpuRatio(r.postRun)}`);
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const seconds = Number(process.argv[2] ?? 10);
  const connections = Number(process.argv[3] ?? 50);
  printApiBench(await runApiBench(seconds, connections), seconds, connections);
}
