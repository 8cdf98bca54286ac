/**
 * Files in (issue 23, item 3), on loopback:
 *   npm run build && npx tsx bench/files.ts [megabytes=1024] [rounds=3]
 *
 * Upload (POST /v1/files, a raw body streamed to the data directory with its sha256) and download (GET
 * /v1/files/{id}/content) throughput in MB/s, beside a bare Fastify server (in a child process too) that streams the
 * same bytes to and from a file of its own, measured in the same interleaved rounds with the same client. The ratio
 * of the medians is what counts (the goal: >= 0.5 of bare). While each transfer runs, the daemon's resident
 * memory (VmRSS) is sampled: it must stay flat however large the file, since neither way holds it in memory.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { once } from 'node:events';
import { startChild, stopChild, type Child } from './child-process.js';
import { keyOf, startErrandd, stopErrandd } from './errandd.js';

const MIB = 1024 * 1024;
const megabytes = Number(process.argv[2] ?? 1024);
const rounds = Number(process.argv[3] ?? 3);

const BARE_FASTIFY = `
import Fastify from 'fastify';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, statSync } from 'node:fs';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
const file = process.env.BARE_FILE;
const app = Fastify();
app.removeAllContentTypeParsers();
app.addContentTypeParser('*', (_req, _payload, done) => done(null));
app.post('/upload', async (req) => {
  const hash = createHash('sha256');
  const tap = new Transform({ transform(chunk, _e, done) { hash.update(chunk); done(null, chunk); } });
  await pipeline(req.raw, tap, createWriteStream(file));
  return { sha256: hash.digest('hex') };
});
app.get('/download', (_req, reply) => reply.type('application/octet-stream').header('content-length', statSync(file).size).send(createReadStream(file)));
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write('listening on ' + address + '\\n');
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
`;

interface Transfer {
  mbPerS: number;
  peakRssMib: number;
}

function rssMib(pid: number): number {
  const line = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(line) / 1024;
}

/** Runs `work` while sampling the process's VmRSS every 20 ms; answers MB/s for `bytes` and the peak. */
async function measured(pid: number, bytes: number, work: () => Promise<void>): Promise<Transfer> {
  let peak = rssMib(pid);
  const sampler = setInterval(() => (peak = Math.max(peak, rssMib(pid))), 20);
  const started = performance.now();
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - started) / 1000;
  return { mbPerS: bytes / 1e6 / seconds, peakRssMib: Math.max(peak, rssMib(pid)) };
}

async function upload(url: string, headers: Record<string, string>, source: string, bytes: number): Promise<any> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/octet-stream', 'content-length': String(bytes) },
    body: Readable.toWeb(createReadStream(source, { highWaterMark: MIB })) as ReadableStream<Uint8Array>,
    duplex: 'half',
  } as RequestInit);
  const body = await res.json();
  if (!res.ok) throw new Error(`upload to ${url} answered ${res.status}: ${JSON.stringify(body)}`);
  return body;
}

async function download(url: string, headers: Record<string, string>, bytes: number): Promise<void> {
  const res = await fetch(url, { headers });
  if (!res.ok || res.body === null) throw new Error(`download from ${url} answered ${res.status}`);
  let received = 0;
  const reader = res.body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) received += read.value.length;
  if (received !== bytes) throw new Error(`download from ${url} gave ${received} bytes of ${bytes}`);
}

/** A file of `bytes` pseudo-random bytes, written a MiB at a time; answers its sha256. */
async function makeSource(path: string, bytes: number): Promise<string> {
  const out = createWriteStream(path);
  const hash = createHash('sha256');
  let block = createHash('sha512').update('errand').digest();
  for (let written = 0; written < bytes; written += MIB) {
    const chunk = Buffer.alloc(Math.min(MIB, bytes - written));
    for (let i = 0; i < chunk.length; i += block.length) {
      block = createHash('sha512').update(block).digest();
      block.copy(chunk, i);
    }
    hash.update(chunk);
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return hash.digest('hex');
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function main(): Promise<void> {
  const bytes = megabytes * MIB;
  const work = mkdtempSync(join(tmpdir(), 'errand-bench-files-'));
  const source = join(work, 'source.bin');
  const sha256 = await makeSource(source, bytes);
  const daemon = await startErrandd({ env: { ERRAND_FILES_MAX_MB: String(megabytes + 1), ERRAND_FILES_ORG_QUOTA_MB: String(2 * megabytes + 2) } });
  let bare: Child | undefined;
  try {
    bare = await startChild(['--input-type=module', '-e', BARE_FASTIFY], { ...process.env, BARE_FILE: join(work, 'bare.bin') });
    const auth = { authorization: `Bearer ${keyOf(daemon)}` };
    const daemonPid = daemon.proc.pid!;
    const barePid = bare.proc.pid!;
    const baselineRss = rssMib(daemonPid);
    const results = { errandUp: [] as Transfer[], bareUp: [] as Transfer[], errandDown: [] as Transfer[], bareDown: [] as Transfer[] };
    for (let round = 0; round < rounds; round++) {
      results.bareUp.push(await measured(barePid, bytes, async () => {
        const answer = await upload(`${bare!.listening}/upload`, {}, source, bytes);
        if (answer.sha256 !== sha256) throw new Error('the bare server hashed other bytes');
      }));
      let fileId = '';
      results.errandUp.push(await measured(daemonPid, bytes, async () => {
        const file = await upload(`${daemon.url}/v1/files?name=bench.bin`, auth, source, bytes);
        if (file.sha256 !== sha256 || file.size !== bytes) throw new Error(`the daemon stored other bytes: ${JSON.stringify(file)}`);
        fileId = file.id;
      }));
      results.bareDown.push(await measured(barePid, bytes, () => download(`${bare!.listening}/download`, {}, bytes)));
      results.errandDown.push(await measured(daemonPid, bytes, () => download(`${daemon.url}/v1/files/${fileId}/content`, auth, bytes)));
      const deleted = await fetch(`${daemon.url}/v1/files/${fileId}`, { method: 'DELETE', headers: auth });
      if (!deleted.ok) throw new Error(`DELETE answered ${deleted.status}`);
    }
    const mb = (ts: Transfer[]) => median(ts.map((t) => t.mbPerS));
    const peak = (ts: Transfer[]) => Math.max(...ts.map((t) => t.peakRssMib));
    const row = (what: string, errand: Transfer[], bareRuns: Transfer[]) =>
      `  ${what.padEnd(9)} errand ${mb(errand).toFixed(1).padStart(8)} MB/s   bare ${mb(bareRuns).toFixed(1).padStart(8)} MB/s   ratio ${(mb(errand) / mb(bareRuns)).toFixed(2)}`;
    console.log(`files: ${megabytes} MiB, ${rounds} interleaved rounds, medians (goal: ratio >= 0.5)`);
    console.log(row('upload', results.errandUp, results.bareUp));
    console.log(row('download', results.errandDown, results.bareDown));
    const growth = (p: number) => `${p.toFixed(0)} MiB (+${(p - baselineRss).toFixed(0)})`;
    console.log(
      `daemon RSS: ${baselineRss.toFixed(0)} MiB before; peak while uploading ${growth(peak(results.errandUp))}; peak while downloading ${growth(peak(results.errandDown))} (a ${megabytes} MiB file each way)`,
    );
  } finally {
    if (bare !== undefined) await stopChild(bare);
    await stopErrandd(daemon);
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
