/**
 * Time from `create()` to the first successful exec of a docker sandbox, started cold and taken from the warm pool,
 * beside a bare `docker run --rm --entrypoint true IMAGE` measured in the same run:
 *   node --import tsx bench/sandbox.ts [iterations=5] [image=errand-sandbox:latest]
 * Needs a Docker engine, the built image and iptables (as root), like the docker driver itself; without an engine or
 * the image it says so and exits 0.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Docker from 'dockerode';
import { execa } from 'execa';
import { pino } from 'pino';
import { DockerDriver } from '../src/sandbox/docker/docker-driver.js';
import { sandboxStatus } from '../src/sandbox/docker/sandbox-status.js';

const iterations = Number(process.argv[2] ?? 5);
const image = process.argv[3] ?? 'errand-sandbox:latest';
const LIMITS = { memoryMb: 2048, cpus: 1, pidsLimit: 512 };

interface Figures {
  samples: number[];
  median: number;
  mean: number;
}

function figures(samples: number[]): Figures {
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { samples, median, mean: samples.reduce((sum, value) => sum + value, 0) / samples.length };
}

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}

async function bareDockerRun(): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const started = performance.now();
    await execa('docker', ['run', '--rm', '--network', 'none', '--entrypoint', 'true', image]);
    samples.push(performance.now() - started);
  }
  return samples;
}

async function createToFirstExec(driver: DockerDriver, runId: string, beforeEach: () => Promise<void>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    await beforeEach();
    const signal = AbortSignal.timeout(120_000);
    const started = performance.now();
    const sandbox = await driver.create({ runId: `${runId}_${i}`, env: {}, signal });
    const result = await sandbox.exec({ language: 'bash', code: 'true', timeoutMs: 10_000 }, signal);
    samples.push(performance.now() - started);
    if (result.exitCode !== 0) throw new Error(`exec failed: ${result.stderr}`);
    await sandbox.destroy();
  }
  return samples;
}

async function main(): Promise<void> {
  const docker = new Docker();
  const status = await sandboxStatus({ docker, image });
  if (!status.engine.reachable || !status.image.present) {
    console.log(`sandbox bench skipped: ${status.engine.reachable ? `image ${image} is not built` : 'no Docker engine is reachable'}`);
    return;
  }
  const logger = pino({ level: 'warn' });
  const home = mkdtempSync(join(tmpdir(), 'errand-bench-sandbox-'));
  try {
    // One unmeasured round each, so that image layers and the network are warm for every variant alike.
    await execa('docker', ['run', '--rm', '--network', 'none', '--entrypoint', 'true', image]);
    const bare = figures(await bareDockerRun());

    const coldDriver = await DockerDriver.start({ docker, image, home, logger, limits: LIMITS, warmPoolSize: 0 });
    await createToFirstExec(coldDriver, 'run_bench_warmup', async () => undefined).catch(() => undefined);
    const cold = figures(await createToFirstExec(coldDriver, 'run_bench_cold', async () => undefined));
    await coldDriver.close();

    const warmDriver = await DockerDriver.start({ docker, image, home, logger, limits: LIMITS, warmPoolSize: 1 });
    const warm = figures(await createToFirstExec(warmDriver, 'run_bench_warm', () => waitFor(() => warmDriver.warmCount === 1)));
    await warmDriver.close();

    const row = (name: string, f: Figures) =>
      `${name.padEnd(36)} median ${f.median.toFixed(0).padStart(6)} ms   mean ${f.mean.toFixed(0).padStart(6)} ms   ` +
      `[${f.samples.map((s) => s.toFixed(0)).join(', ')}]`;
    console.log(`sandbox start, ${iterations} iterations, image ${image}`);
    console.log(row('bare docker run --rm (true)', bare));
    console.log(row('cold: create() -> first exec', cold));
    console.log(row('warm pool: create() -> first exec', warm));
    console.log(`ratio warm / bare-cold (median): ${(warm.median / bare.median).toFixed(3)}`);
    console.log(`ratio cold / bare-cold (median): ${(cold.median / bare.median).toFixed(2)}`);
    console.log(`ratio warm / cold (median):      ${(warm.median / cold.median).toFixed(3)}`);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
