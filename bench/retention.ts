/**
 * What a retention purge costs the API: POST /v1/runs latency (p50, p99) while the daemon purges a backlog of old
 * runs, against the same daemon's latency on the same database without a purge, in the same bench run:
 *   npm run build && npx tsx bench/retention.ts [runs=1000000] [seconds=5] [connections=10] [rounds=5]
 * A data directory is seeded with `runs` finished runs 40 days old (rows of about a kilobyte). Then the compiled
 * daemon runs on it twice: first with `retention.runs_days=0` (nothing is due), measured in `rounds` rounds; then with the
 * default 30 days, whose first retention pass starts at once, measured in rounds until its log says the pass is
 * over (runs purged, space given back); then once more after it. A round that ended after the pass is not counted
 * as "during". The daemon has no model key, so its engine claims each POSTed run and fails it at once: the queue
 * stays short, and what is measured is the API beside the purge, not a queue growing by thousands of runs a second.
 * Medians of the rounds are printed, and the ratios of "during" to "without".
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { isoTime } from '../src/clock.js';
import { createIdFactory } from '../src/ids.js';
import { dataPaths } from '../src/runtime/paths.js';
import { openStore } from '../src/store/store.js';
import { keyOf, startErrandd, stopErrandd, type Errandd } from './errandd.js';

const DAY = 24 * 3600 * 1000;
const POST_BODY = JSON.stringify({ prompt: 'Find the opening hours of {{place}}', inputs: { place: 'the library' } });

interface Latency {
  p50Ms: number;
  p99Ms: number;
  requestsPerSecond: number;
  non2xx: number;
}

export interface RetentionBenchResult {
  runs: number;
  without: Latency[];
  during: Latency[];
  after: Latency;
  purgeSeconds: number;
}

/** The daemon on the bench's data directory, logging at info (the purge's end is read from its log). */
function startDaemon(home: string, env: Record<string, string>, logFile: string): Promise<Errandd> {
  return startErrandd({ home, env: { ERRAND_LOG_LEVEL: 'info', ...env }, logFile });
}

/** `runs` finished runs made 40 days ago, written in large transactions with the daemon stopped. */
function seed(home: string, runs: number): void {
  const store = openStore(dataPaths(home).database);
  try {
    const org = store.db.prepare<[], { id: string }>('SELECT id FROM orgs ORDER BY id LIMIT 1').get()!;
    const project = store.projects.getDefault(org.id)!;
    const at = Date.now() - 40 * DAY;
    const ids = createIdFactory(() => at);
    const iso = isoTime(at);
    const insert = store.db.prepare(
      `INSERT INTO runs (id, org_id, project_id, prompt, inputs, model, timeout_s, status, result, created_at, updated_at, started_at, finished_at)
       VALUES (@id, @org_id, @project_id, @prompt, @inputs, 'sonnet', 600, 'succeeded', @result, @at, @at, @at, @at)`,
    );
    const prompt = 'Find the opening hours of {{place}} and say whether it is open on Sundays. '.repeat(4);
    const result = JSON.stringify({ hours: 'Mon-Sat 09:00-18:00', sunday: false, source: 'https://library.example/hours', note: 'x'.repeat(400) });
    for (let done = 0; done < runs; ) {
      const n = Math.min(50_000, runs - done);
      store.db.transaction(() => {
        for (let i = 0; i < n; i++) insert.run({ id: ids('run'), org_id: org.id, project_id: project.id, prompt, inputs: '{"place":"the library"}', result, at: iso });
      })();
      done += n;
    }
    store.db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    store.close();
  }
}

async function measure(d: Errandd, key: string, seconds: number, connections: number): Promise<Latency> {
  const r = await autocannon({
    url: `${d.url}/v1/runs`,
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: POST_BODY,
    connections,
    duration: seconds,
  });
  return { p50Ms: r.latency.p50, p99Ms: r.latency.p99, requestsPerSecond: r.requests.average, non2xx: r.non2xx };
}

const purged = (log: string) => readFileSync(log, 'utf8').includes('"msg":"retention pass finished"');

export async function runRetentionBench(runs = 1_000_000, seconds = 5, connections = 10, rounds = 5): Promise<RetentionBenchResult> {
  const home = mkdtempSync(join(tmpdir(), 'errand-bench-retention-'));
  let daemon: Errandd | null = null;
  try {
    // The first start makes the organisation and prints its key.
    daemon = await startDaemon(home, { ERRAND_RETENTION_RUNS_DAYS: '0' }, 'first.log');
    const key = keyOf(daemon);
    await stopErrandd(daemon);
    const seeding = performance.now();
    seed(home, runs);
    process.stderr.write(`seeded ${runs} runs in ${((performance.now() - seeding) / 1000).toFixed(1)} s (${(statSync(dataPaths(home).database).size / 1e6).toFixed(0)} MB)\n`);

    daemon = await startDaemon(home, { ERRAND_RETENTION_RUNS_DAYS: '0' }, 'without.log');
    await measure(daemon, key, Math.min(2, seconds), connections);
    const without: Latency[] = [];
    for (let i = 0; i < rounds; i++) without.push(await measure(daemon, key, seconds, connections));
    await stopErrandd(daemon);

    const started = performance.now();
    daemon = await startDaemon(home, {}, 'purging.log');
    const log = daemon.log;
    const during: Latency[] = [];
    let purgeSeconds = Number.NaN;
    while (!purged(log)) {
      const round = await measure(daemon, key, seconds, connections);
      if (purged(log)) break;
      during.push(round);
    }
    purgeSeconds = (performance.now() - started) / 1000;
    const after = await measure(daemon, key, seconds, connections);
    return { runs, without, during, after, purgeSeconds };
  } finally {
    if (daemon) await stopErrandd(daemon);
    rmSync(home, { recursive: true, force: true });
  }
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s[Math.floor(s.length / 2)]!;
}

function report(r: RetentionBenchResult): void {
  const line = (name: string, ls: Latency[]) =>
    `${name.padEnd(22)} p50 ${median(ls.map((l) => l.p50Ms)).toFixed(1).padStart(6)} ms   p99 ${median(ls.map((l) => l.p99Ms)).toFixed(1).padStart(6)} ms   ${median(ls.map((l) => l.requestsPerSecond)).toFixed(0).padStart(6)} req/s   (${ls.length} rounds, non-2xx ${ls.reduce((a, l) => a + l.non2xx, 0)})`;
  console.log(`POST /v1/runs beside a retention purge of ${r.runs} runs`);
  console.log(line('without a purge', r.without));
  // A small purge can end before the first round under it does: no round is then counted as "during".
  console.log(r.during.length === 0 ? 'during the purge       no round: the purge ended before the first one did' : line('during the purge', r.during));
  console.log(line('after it', [r.after]));
  const ratio = (f: (l: Latency) => number) => (median(r.during.map(f)) / median(r.without.map(f))).toFixed(2);
  if (r.during.length > 0) console.log(`during / without: p50 x${ratio((l) => l.p50Ms)}, p99 x${ratio((l) => l.p99Ms)}, req/s x${ratio((l) => l.requestsPerSecond)}`);
  console.log(`the purge took ${r.purgeSeconds.toFixed(1)} s under load (${(r.runs / r.purgeSeconds).toFixed(0)} runs/s)`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [runs, seconds, connections, rounds] = process.argv.slice(2).map(Number);
  report(await runRetentionBench(runs || undefined, seconds || undefined, connections || undefined, rounds || undefined));
}
