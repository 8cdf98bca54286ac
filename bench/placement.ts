/**
 * Where a sandbox runs, and what that costs (issue 26): here, the runtime. The same sandbox under runc and under
 * gVisor's runsc (ptrace platform), alternating, in the same run:
 *   node --import tsx bench/placement.ts [rounds=3] [image=errand-sandbox:latest]
 *   start     DockerDriver.create() of a cold container -> its supervisor answers (what a run without a warm pool waits)
 *   browser   a browser run in it: Chromium's launch and a page served inside the sandbox, navigated, read, screenshotted
 * Prints medians and runsc/runc ratios. Needs a Docker engine with the image and with runsc registered
 * (docs/operations.md, "gVisor"); without them it says so and exits 0.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Docker from 'dockerode';
import { pino } from 'pino';
import { DockerDriver } from '../src/sandbox/docker/docker-driver.js';
import { sandboxStatus } from '../src/sandbox/docker/sandbox-status.js';

const rounds = Number(process.argv[2] ?? 3);
const image = process.argv[3] ?? 'errand-sandbox:latest';
const LIMITS = { memoryMb: 2048, cpus: 1, pidsLimit: 512 };
const RUNTIMES = ['runc', 'runsc'] as const;
type Runtime = (typeof RUNTIMES)[number];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function oneSandbox(driver: DockerDriver, round: number): Promise<{ startMs: number; browserMs: number }> {
  const signal = AbortSignal.timeout(180_000);
  const started = performance.now();
  const sandbox = await driver.create({ runId: `run_bench_placement_${round}`, env: {}, signal });
  const startMs = performance.now() - started;
  try {
    await sandbox.putFile('site/index.html', Buffer.from(`<title>Shop</title><h1>Blue widget</h1>${'<p>A line of the page.</p>'.repeat(50)}`));
    const serving = await sandbox.exec(
      {
        language: 'bash',
        code: 'cd site && nohup python3 -m http.server 8000 --bind 127.0.0.1 >/dev/null 2>&1 &\nfor i in $(seq 300); do (echo > /dev/tcp/127.0.0.1/8000) 2>/dev/null && echo up && break; sleep 0.1; done',
        timeoutMs: 60_000,
      },
      signal,
    );
    if (serving.stdout.trim() !== 'up') throw new Error(`the page server did not start: ${serving.stderr}`);
    const browsing = performance.now();
    for (const action of [{ action: 'navigate', url: 'http://127.0.0.1:8000/' }, { action: 'read_text' }, { action: 'screenshot' }] as const) {
      const result = await sandbox.browser(action, signal);
      if (!result.ok) throw new Error(`${action.action} failed: ${result.text}`);
    }
    return { startMs, browserMs: performance.now() - browsing };
  } finally {
    await sandbox.destroy();
  }
}

async function main(): Promise<void> {
  const docker = new Docker();
  const status = await sandboxStatus({ docker, image });
  const info = status.engine.reachable ? ((await docker.info()) as { Runtimes?: Record<string, unknown> }) : {};
  if (!status.engine.reachable || !status.image.present || info.Runtimes?.runsc === undefined) {
    console.log(`no Docker engine, image ${image} or runsc runtime here; nothing measured`);
    return;
  }
  const home = mkdtempSync(join(tmpdir(), 'errand-bench-placement-'));
  const logger = pino({ level: 'silent' });
  const drivers = {} as Record<Runtime, DockerDriver>;
  try {
    for (const runtime of RUNTIMES) drivers[runtime] = await DockerDriver.start({ docker, image, home, logger, limits: LIMITS, warmPoolSize: 0, runtime });
    const samples: Record<Runtime, { startMs: number; browserMs: number }[]> = { runc: [], runsc: [] };
    // One unmeasured round first: page caches and the image's layers.
    for (let round = -1; round < rounds; round++) {
      for (const runtime of RUNTIMES) {
        const sample = await oneSandbox(drivers[runtime], round + 1);
        if (round >= 0) samples[runtime].push(sample);
      }
    }
    console.log(`runtime: the same cold sandbox and browser run under runc and runsc (gVisor, ptrace), alternating, ${rounds} rounds; medians`);
    for (const [label, of] of [
      ['start', (s: { startMs: number }) => s.startMs],
      ['browser', (s: { browserMs: number }) => s.browserMs],
    ] as const) {
      const runc = median(samples.runc.map(of));
      const runsc = median(samples.runsc.map(of));
      console.log(`  ${label.padEnd(8)} runc ${runc.toFixed(0).padStart(6)} ms   runsc ${runsc.toFixed(0).padStart(6)} ms   runsc/runc ${(runsc / runc).toFixed(2)}`);
    }
  } finally {
    for (const driver of Object.values(drivers)) await driver.close();
    rmSync(home, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
