/**
 * Where a sandbox runs, and what that costs (issue 26), in the same run:
 *   node --import tsx bench/placement.ts [rounds=3] [image=errand-sandbox:latest]
 * Engines: one Docker engine against two (the local one and a second dockerd in a network namespace over tcp:// with
 * TLS, test/fixtures/second-dockerd.ts; root only), each taking `rounds` runs at once (sandbox.hosts capacity),
 * through HostSetDriver's placement: 4 x the capacity of runs, each a cold sandbox that runs one command and is
 * removed, all queued at once; prints runs per second and the p99 of a run's start (queued -> its sandbox answers).
 * Both engines share this machine's cores, so the ratio is what placement adds here, not what a second machine would.
 * Then, on the second engine alone: a warm start (a pooled container handed to a run through HostSetDriver.create, which
 * looks at the host's firewall beside it), and what looking at the firewall costs by itself: the quick look made
 * before each run (`hostFirewallProbe`) and the full check (`checkHostFirewall`).
 * Then a `docker ping` to the second engine over SSH (an sshd in its namespace, test/fixtures/second-dockerd-sshd.ts):
 * over the daemon's kept connection, over a new connection per call (docker-modem's ssh://), and over TLS.
 * Runtime: the same sandbox under runc and under gVisor's runsc (ptrace platform), alternating:
 *   start     DockerDriver.create() of a cold container -> its supervisor answers (what a run without a warm pool waits)
 *   browser   a browser run in it: Chromium's launch and a page served inside the sandbox, navigated, read, screenshotted
 * Prints medians and runsc/runc ratios. Needs a Docker engine with the image and with runsc registered
 * (docs/operations.md, "gVisor"); without them it says so and exits 0.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Docker from 'dockerode';
import { pino } from 'pino';
import { DockerDriver } from '../src/sandbox/docker/docker-driver.js';
import { checkHostFirewall, hostFirewallProbe, removeHostFirewallHelper } from '../src/sandbox/docker/host-firewall.js';
import { HostSetDriver } from '../src/sandbox/docker/host-set-driver.js';
import { engineForHost, parseSandboxHosts } from '../src/sandbox/docker/sandbox-hosts.js';
import { sandboxStatus } from '../src/sandbox/docker/sandbox-status.js';
import { SecondDockerd, secondDockerdAvailability } from '../test/fixtures/second-dockerd.js';
import { SecondDockerdSshd } from '../test/fixtures/second-dockerd-sshd.js';

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

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * `runs` runs queued at once on `hosts`, placed as the dispatcher places them (a run starts when a host has room,
 * and its slot is released when it ends): runs per second, and each run's start (queued -> sandbox answers).
 */
async function throughput(hosts: Record<string, unknown>, runs: number, home: string): Promise<{ perSecond: number; startsMs: number[] }> {
  const logger = pino({ level: 'silent' });
  const driver = await HostSetDriver.start({
    hosts: parseSandboxHosts(hosts, { memoryMbPerRun: LIMITS.memoryMb }),
    engineFor: (host) => engineForHost(host, { sshAgent: process.env.SSH_AUTH_SOCK }),
    image,
    home,
    logger,
    limits: LIMITS,
    warmPoolSize: 0,
    warmPoolBrowser: false,
    runtime: null,
    checkMs: 5_000,
  });
  try {
    const queue = Array.from({ length: runs }, (_, i) => i);
    const startsMs: number[] = [];
    const began = performance.now();
    const oneRun = async (i: number, slot: NonNullable<ReturnType<HostSetDriver['reserve']>>): Promise<void> => {
      try {
        const signal = AbortSignal.timeout(180_000);
        const sandbox = await driver.create({ runId: `run_bench_engines_${i}`, env: {}, signal, slot });
        startsMs.push(performance.now() - began);
        try {
          const result = await sandbox.exec({ language: 'bash', code: 'echo ok', timeoutMs: 30_000 }, signal);
          if (result.stdout.trim() !== 'ok') throw new Error(`run ${i}: ${result.stderr}`);
        } finally {
          await sandbox.destroy();
        }
      } finally {
        slot.release();
      }
    };
    // The dispatcher's loop: place every queued run there is room for; again as each run ends.
    await new Promise<void>((resolve, reject) => {
      let running = 0;
      const pump = (): void => {
        for (;;) {
          if (queue.length === 0) break;
          const slot = driver.reserve(null);
          if (slot === null) break;
          const i = queue.shift()!;
          running++;
          oneRun(i, slot).then(() => {
            running--;
            if (queue.length === 0 && running === 0) resolve();
            else pump();
          }, reject);
        }
      };
      pump();
    });
    return { perSecond: runs / ((performance.now() - began) / 1000), startsMs };
  } finally {
    await driver.close();
  }
}

/** One engine against two, the same runs; skipped (said so) where a second engine cannot be made. */
async function engines(home: string): Promise<void> {
  const second = secondDockerdAvailability();
  if (!second.available) {
    console.log(`engines: skipped (${second.reason})`);
    return;
  }
  const perHost = Math.max(1, rounds);
  const runs = 4 * perHost;
  const engine = await SecondDockerd.start(image, 'bench');
  try {
    const local = { url: 'unix:///var/run/docker.sock', capacity: { runs: perHost } };
    const remote = { url: engine.url, tls: engine.tls, capacity: { runs: perHost } };
    // One unmeasured pass on each engine first: page caches and the image's layers.
    await throughput({ local, remote }, 2 * perHost, home);
    const one = await throughput({ local }, runs, home);
    const two = await throughput({ local, remote }, runs, home);
    console.log(
      `engines: ${runs} runs queued at once, ${perHost} at a time per engine (cold sandbox, one command, removed)` +
        `${engine.imageLoadMs > 0 ? `; loading the image into the second engine took ${engine.imageLoadMs} ms` : ''}`,
    );
    for (const [label, result] of [['one', one], ['two', two]] as const) {
      console.log(`  ${label.padEnd(3)} engine${label === 'one' ? ' ' : 's'}  ${result.perSecond.toFixed(2).padStart(6)} runs/s   start p99 ${percentile(result.startsMs, 99).toFixed(0).padStart(6)} ms`);
    }
    console.log(`  two/one  throughput ${(two.perSecond / one.perSecond).toFixed(2)}   start p99 ${(percentile(two.startsMs, 99) / percentile(one.startsMs, 99)).toFixed(2)}`);
    await warmStarts(engine, home);
    await pings(engine, home);
  } finally {
    await engine.stop();
  }
}

/**
 * Warm starts on the second engine alone: a pooled container handed to a run (HostSetDriver.create, which looks at the
 * host's firewall beside it), one at a time, each waiting for the pool to have one ready; then the firewall's quick
 * look and full check on their own. Medians.
 */
async function warmStarts(engine: SecondDockerd, home: string): Promise<void> {
  const logger = pino({ level: 'silent' });
  const n = 10 * Math.max(1, rounds);
  const driver = await HostSetDriver.start({
    hosts: parseSandboxHosts({ remote: { url: engine.url, tls: engine.tls, capacity: { runs: 1 } } }, { memoryMbPerRun: LIMITS.memoryMb }),
    engineFor: (host) => engineForHost(host, { sshAgent: process.env.SSH_AUTH_SOCK }),
    image,
    home,
    logger,
    limits: LIMITS,
    warmPoolSize: 1,
    warmPoolBrowser: false,
    runtime: null,
    checkMs: 5_000,
  });
  const startsMs: number[] = [];
  try {
    for (let i = 0; i <= n; i++) {
      const deadline = Date.now() + 120_000;
      while (driver.warmCount < 1) {
        if (Date.now() > deadline) throw new Error('the warm pool of the second engine never filled');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const slot = driver.reserve(null);
      if (slot === null) throw new Error('the second engine took no run');
      try {
        const started = performance.now();
        const sandbox = await driver.create({ runId: `run_bench_warm_${i}`, env: {}, signal: AbortSignal.timeout(60_000), slot });
        // The first is unmeasured: the client's first connection.
        if (i > 0) startsMs.push(performance.now() - started);
        await sandbox.destroy();
      } finally {
        slot.release();
      }
    }
  } finally {
    await driver.close();
  }
  const helper = { image, bridge: 'errand0', host: 'remote', labels: { 'errand.bench': `placement-${process.pid}` } };
  const probe = hostFirewallProbe(engine.docker, helper);
  const timed = async (look: () => Promise<unknown>): Promise<number[]> => {
    const ms: number[] = [];
    for (let i = 0; i < n; i++) {
      const started = performance.now();
      await look();
      ms.push(performance.now() - started);
    }
    return ms;
  };
  await probe();
  const quickMs = median(await timed(probe));
  const fullMs = median(await timed(() => checkHostFirewall(engine.docker, helper)));
  await removeHostFirewallHelper(engine.docker, helper);
  console.log(`warm start on the second engine, medians of ${n}: ${median(startsMs).toFixed(0)} ms (a pooled container handed to a run)`);
  console.log(`  its firewall looked at   quick ${quickMs.toFixed(0)} ms (one iptables -S in the kept helper)   full check ${fullMs.toFixed(0)} ms`);
}

/**
 * A `docker ping` to the second engine over its kept SSH connection (SshConnection), over docker-modem's own ssh://
 * (a new SSH connection per call), and over TLS, the same engine in the same run: medians, and the kept connection's
 * first ping (its handshake and sign-in).
 */
async function pings(engine: SecondDockerd, home: string): Promise<void> {
  const sshd = await SecondDockerdSshd.start(engine);
  const knownHosts = join(home, 'known_hosts');
  writeFileSync(knownHosts, `${sshd.knownHostsLine}\n`);
  const [far] = parseSandboxHosts({ far: { url: sshd.url, ssh: { key: sshd.clientKey, known_hosts: knownHosts } } }, { memoryMbPerRun: LIMITS.memoryMb });
  const kept = engineForHost(far!, { sshAgent: undefined });
  const perCall = new Docker({ protocol: 'ssh', host: engine.address, port: 22, username: 'root', sshOptions: { privateKey: readFileSync(sshd.clientKey) } } as Docker.DockerOptions);
  const tls = new Docker({ protocol: 'https', host: engine.address, port: 2376, ca: readFileSync(engine.tls.ca), cert: readFileSync(engine.tls.cert), key: readFileSync(engine.tls.key) });
  const times = async (docker: Docker, n: number): Promise<number[]> => {
    const ms: number[] = [];
    for (let i = 0; i < n; i++) {
      const started = performance.now();
      await docker.ping();
      ms.push(performance.now() - started);
    }
    return ms;
  };
  try {
    const [first] = await times(kept.docker, 1);
    await times(tls, 1);
    const n = 20 * Math.max(1, rounds);
    const keptMs = median(await times(kept.docker, n));
    const tlsMs = median(await times(tls, n));
    // Each a handshake, a sign-in and a process on the host: fewer of them.
    const perCallN = Math.ceil(n / 4);
    const perCallMs = median(await times(perCall, perCallN));
    console.log(`docker ping to the second engine, medians of ${n} (${perCallN} for a connection per call):`);
    console.log(
      `  docker ping  kept ssh ${keptMs.toFixed(2)} ms   ssh per call ${perCallMs.toFixed(1)} ms   tls ${tlsMs.toFixed(2)} ms   per-call/kept ${(perCallMs / keptMs).toFixed(0)}   kept/tls ${(keptMs / tlsMs).toFixed(2)}   kept's first ${first!.toFixed(0)} ms`,
    );
  } finally {
    kept.close();
    await sshd.stop();
  }
}

async function main(): Promise<void> {
  const docker = new Docker();
  const status = await sandboxStatus({ docker, image });
  if (!status.engine.reachable || !status.image.present) {
    console.log(`no Docker engine or image ${image} here; nothing measured`);
    return;
  }
  const engineHome = mkdtempSync(join(tmpdir(), 'errand-bench-engines-'));
  try {
    await engines(engineHome);
  } finally {
    rmSync(engineHome, { recursive: true, force: true });
  }
  const info = (await docker.info()) as { Runtimes?: Record<string, unknown> };
  if (info.Runtimes?.runsc === undefined) {
    console.log('runtime: no runsc runtime here; nothing measured');
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
