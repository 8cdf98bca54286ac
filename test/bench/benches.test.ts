/**
 * Every bench runs at its smallest setting, so that one cannot rot unnoticed between the times someone runs
 * `npm run bench` (issue 21, item 16: bench/schemas.ts had stopped at its first request). What is checked is that it
 * exits 0 and prints its figures, never how fast anything was: speed is what the benches themselves report.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { dockerAvailability, runscAvailability } from '../fixtures/docker.js';
import { cleanEnv } from '../cli/run-cli.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BENCH_DIR = fileURLToPath(new URL('../../bench', import.meta.url));

/** Each bench's smallest setting (its argv) and lines of figures it must print with it. */
const SMALLEST: Record<string, { args: string[]; figures: RegExp[] }> = {
  'api.ts': {
    args: ['0.5', '2', '1'],
    figures: [/^ {2}GET \/v1\/runs\/\{id\} +\d+ +[\d.]+ +[\d.]+ +[\d.]+ +[\d.]+% /m, /^ {2}POST \/v1\/runs +\d+ /m, /^ {2}POST, engine failing +\d+ /m],
  },
  'engine.ts': {
    args: ['1', '1', '10'],
    figures: [/^ {2}overhead +median [\d.]+ ms/m, /^throughput: 1 concurrent runs in [\d.]+ s = [\d.]+ runs\/s$/m, /^claim \(reads of one claim of 4 runs, 10 runs queued over 50 organisations\): median \d+ µs/m],
  },
  'webhooks.ts': { args: ['10', '2'], figures: [/^ {2}burst: [\d.]+ deliveries\/s; enqueue->arrival p50 [\d.]+ ms/m, /^ {2}paced \(10 events, one per [\d.]+ ms\): enqueue->arrival p50 [\d.]+ ms/m] },
  'mail.ts': { args: ['20', '2', '1', '10'], figures: [/^inbound \(medians\): daemon \d+ replies\/s, bare \d+ msg\/s, ratio [\d.]+/m, /^outbound: \d+ sends\/s/m] },
  'sandbox.ts': { args: ['1'], figures: [/^cold: create\(\) -> first exec +median +\d+ ms/m, /^warm pool: create\(\) -> first exec +median +\d+ ms/m] },
  'sandbox-memory.ts': {
    args: ['1'],
    figures: [/^pooled, no browser \(warm_pool_browser false\) +median +\d+ MiB/m, /^pooled, Chromium idle on its blank page +median +\d+ MiB/m, /^a run with the heavy page open .* median +\d+ MiB/m],
  },
  'schemas.ts': { args: ['0.5', '2', '1'], figures: [/^ +1 +\d+ +\d+ +[\d.]+x /m, /^medians over the rounds .* at [\d.]+x the baseline's req\/s, p99 latency [\d.]+x/m] },
  'events.ts': { args: ['8', '2'], figures: [/^ {2}paced, 1 subscriber \(\d+ events\): transition -> subscriber p50 \d+ ms/m, /^ {2}fan-out, 2 subscribers: \d+ events\/s delivered/m] },
  'secret-mask.ts': { args: ['1'], figures: [/^ +1 +\d+ +1000000 +ten +[\d.]+ +[\d.]+ +[\d.]+x +\d+$/m, /^ +5 +\d+ +1000000 +ten +[\d.]+ +[\d.]+ +[\d.]+x +\d+$/m] },
  'tenant-abuse.ts': { args: ['.'], figures: [/^ {2}"registrationsIn3s": \d+,$/m, /^ {2}"otherOrgInitialize": \d+,$/m, /^ {2}"otherOrgStream": \d+$/m] },
  'live.ts': {
    args: ['10', '1', '1', '0'],
    figures: [
      /^frame latency \(local driver, 10 changes, \d+ seen\): p50 \d+ ms, p99 \d+ ms/m,
      /^first page \((docker, warm pool|local), 1 runs\): POST -> first frame p50 \d+ ms; POST -> run started p50 \d+ ms; navigate step/m,
      /^ {2}run duration +off +\d+ ms +on +\d+ ms +ratio [\d.]+$/m,
      /^ {2}daemon CPU +off +\d+ ms +on +\d+ ms +ratio [\d.]+$/m,
      /^ {2}sandbox CPU +off +\d+ ms +on +\d+ ms +ratio [\d.]+$/m,
    ],
  },
  'placement.ts': {
    args: ['1'],
    figures: [
      /^( {2}two\/one +throughput [\d.]+ +start p99 [\d.]+|engines: skipped \(.+\))$/m,
      /^( {2}its firewall looked at +quick \d+ ms \(one iptables -S in the kept helper\) +full check \d+ ms|engines: skipped \(.+\))$/m,
      /^( {2}docker ping +kept ssh [\d.]+ ms +ssh per call [\d.]+ ms +tls [\d.]+ ms +per-call\/kept \d+ +kept\/tls [\d.]+ +kept's first \d+ ms|engines: skipped \(.+\))$/m,
      /^ {2}start +runc +\d+ ms +runsc +\d+ ms +runsc\/runc [\d.]+$/m,
      /^ {2}browser +runc +\d+ ms +runsc +\d+ ms +runsc\/runc [\d.]+$/m,
    ],
  },
  'files.ts': {
    args: ['8', '1'],
    figures: [
      /^ {2}upload +errand +[\d.]+ MB\/s +bare +[\d.]+ MB\/s +ratio [\d.]+$/m,
      /^ {2}download +errand +[\d.]+ MB\/s +bare +[\d.]+ MB\/s +ratio [\d.]+$/m,
      /^daemon RSS: \d+ MiB before; peak while uploading \d+ MiB \(\+-?\d+\); peak while downloading \d+ MiB \(\+-?\d+\)/m,
    ],
  },
  'sdk.ts': { args: ['2', '5', '25'], figures: [/^ {2}SDK +median [\d.]+ ms +p90 [\d.]+ ms +overhead -?[\d.]+%$/m, /^GET \/v1\/runs\/\{id\} \(5 calls each way\):$/m] },
  'replay.ts': {
    args: ['1', '200', 'off'],
    figures: [
      /^ {2}agent +duration median \d+ ms +cost median \$[\d.]+ +model cost \$[\d.]+ +tokens \d+$/m,
      /^ratios replay\/agent: duration [\d.]+ +cost [\d.]+ +model cost 0\.0000$/m,
      /^ {2}where the replay's time went \(medians, ms\): .*\bsandbox \d+ .*\bevidence \d+ /m,
    ],
  },
  'web-tasks.ts': {
    args: ['3'],
    figures: [
      /^ {2}all( +\d+\/3){1,3}$/m,
      /^ {2}new +\d+ snapshots: median \d+ chars \(\d+ tokens\), p90 \d+ chars \(\d+ tokens\)$/m,
      /^ {2}new +navigate \d+ {2}click \d+ {2}type \d+ {2}read_text (\d+|-) {2}snapshot \d+$/m,
    ],
  },
  'retention.ts': { args: ['100', '0.5', '2', '1'], figures: [/^without a purge +p50 +[\d.]+ ms +p99 +[\d.]+ ms +\d+ req\/s/m, /^the purge took [\d.]+ s under load/m] },
};

/** The benches `npm run bench` runs, in its order. */
function scriptBenches(): string[] {
  const script = (JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8')) as { scripts: Record<string, string> }).scripts.bench!;
  return [...script.matchAll(/\btsx bench\/([\w-]+\.ts)\b/g)].map((m) => m[1]!);
}

/** The files of bench/ that are benches, not modules they share: those that read their sizes from argv. */
function benchFiles(): string[] {
  return readdirSync(BENCH_DIR)
    .filter((file) => file.endsWith('.ts') && readFileSync(`${BENCH_DIR}/${file}`, 'utf8').includes('process.argv'))
    .sort();
}

function runBench(file: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `bench/${file}`, ...args], { cwd: ROOT, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('npm run bench', () => {
  it('runs every bench in bench/, each once', () => {
    expect([...scriptBenches()].sort()).toEqual(benchFiles());
    expect(new Set(scriptBenches()).size).toBe(scriptBenches().length);
  });

  it('has a smallest setting for every bench it runs', () => {
    expect(Object.keys(SMALLEST).sort()).toEqual([...scriptBenches()].sort());
  });
});

describe.each(scriptBenches())('bench/%s at its smallest setting', (file) => {
  it('exits 0 and prints its figures', { timeout: 180_000 }, async () => {
    const smallest = SMALLEST[file]!;
    // The sandbox bench says so and exits 0 without a Docker engine; under CI the gate makes that an error.
    const docker = ['sandbox.ts', 'sandbox-memory.ts', 'placement.ts', 'replay.ts'].includes(file) ? await dockerAvailability() : null;
    // The placement bench needs runsc as well; under CI (ERRAND_REQUIRE_RUNSC=1) its absence is an error.
    const runsc = file === 'placement.ts' && docker !== null ? await runscAvailability(docker) : true;
    const res = await runBench(file, smallest.args);
    expect(res.code, res.stderr).toBe(0);
    if (docker !== null && !docker.available) {
      expect(res.stdout).toMatch(file === 'sandbox.ts' ? /^sandbox bench skipped: /m : /nothing measured$/m);
      return;
    }
    if (!runsc) {
      expect(res.stdout).toMatch(/nothing measured$/m);
      return;
    }
    for (const figure of smallest.figures) expect(res.stdout, res.stderr).toMatch(figure);
    expect(res.stdout).not.toMatch(/\bNaN\b/);
  });
});
