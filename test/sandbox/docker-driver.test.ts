import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { connectedNetworks, readHostRoutes } from '../../src/network/host-routes.js';
import { installationId } from '../../src/runtime/installation-id.js';
import { currentProcessIdentity, type ProcessIdentity } from '../../src/runtime/process-identity.js';
import { hostDebianMirror } from '../../src/sandbox/docker/apt-mirror.js';
import { DockerDriver } from '../../src/sandbox/docker/docker-driver.js';
import type { DockerSandbox } from '../../src/sandbox/docker/docker-sandbox.js';
import { SUPERVISOR_PORT } from '../../src/sandbox/docker/container-spec.js';
import { DAEMON_LABEL, INSTALLATION_LABEL, processLabels } from '../../src/sandbox/docker/labels.js';
import { FORWARD_CHAIN, INPUT_CHAIN, listSandboxFirewallRules } from '../../src/sandbox/docker/sandbox-firewall.js';
import type { LiveFrame } from '../../src/sandbox/protocol.js';
import { SandboxError } from '../../src/sandbox/sandbox-error.js';
import { selectDriver } from '../../src/sandbox/select-driver.js';
import { newSupervisorTls } from '../../src/sandbox/supervisor-channel.js';
import { SupervisorClient } from '../../src/sandbox/supervisor-client.js';
import { dockerAvailability } from '../fixtures/docker.js';
import { PROBE_CONNECT } from '../fixtures/probe-connect.js';
import { tempDir } from '../fixtures/temp-dir.js';

const docker = await dockerAvailability();
const logger = pino({ level: 'silent' });
const LIMITS = { memoryMb: 512, cpus: 1, pidsLimit: 128 };
const MIB = 1024 * 1024;

const signal = () => AbortSignal.timeout(60_000);
const bash = (sandbox: DockerSandbox, code: string, timeoutMs = 20_000) =>
  sandbox.exec({ language: 'bash', code, timeoutMs }, signal());

function until<T>(what: string, poll: () => Promise<T | null | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  return (async () => {
    for (;;) {
      const value = await poll();
      if (value !== null && value !== undefined && value !== false) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
}

describe('hostDebianMirror', () => {
  it('takes the URI of a deb822 stanza that carries the suite, skipping security and disabled files', () => {
    const dir = tempDir('errand-apt-');
    try {
      mkdirSync(join(dir.path, 'sources.list.d'));
      writeFileSync(
        join(dir.path, 'sources.list.d', 'debian.sources'),
        'Types: deb\nURIs: http://mirror.example/debian-security\nSuites: bookworm-security\n\n' +
          'Types: deb\nURIs: http://mirror.example/debian\nSuites: bookworm bookworm-updates\nComponents: main\n',
      );
      writeFileSync(join(dir.path, 'sources.list.d', 'other.list.disabled'), 'deb http://wrong.example/debian bookworm main\n');
      expect(hostDebianMirror('bookworm', dir.path)).toBe('http://mirror.example/debian');
    } finally {
      dir.remove();
    }
  });

  it('reads one-line sources and falls back to deb.debian.org', () => {
    const dir = tempDir('errand-apt-');
    try {
      expect(hostDebianMirror('bookworm', dir.path)).toBe('http://deb.debian.org/debian');
      writeFileSync(join(dir.path, 'sources.list'), '# comment\ndeb [arch=amd64] http://local.example/debian bookworm main\n');
      expect(hostDebianMirror('bookworm', dir.path)).toBe('http://local.example/debian');
    } finally {
      dir.remove();
    }
  });
});

describe.skipIf(!docker.available)('DockerDriver', () => {
  let home: ReturnType<typeof tempDir>;
  let driver: DockerDriver;
  const sandboxes: DockerSandbox[] = [];
  const create = async (runId: string, env: Record<string, string> = {}) => {
    const sandbox = await driver.create({ runId, env, signal: signal() });
    sandboxes.push(sandbox);
    return sandbox;
  };

  beforeAll(async () => {
    home = tempDir('errand-docker-driver-');
    driver = await DockerDriver.start({ docker: docker.docker, image: docker.image, home: home.path, logger, limits: LIMITS, warmPoolSize: 0 });
  });

  afterEach(async () => {
    await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.destroy()));
  });

  afterAll(async () => {
    await driver?.close();
    home?.remove();
  });

  describe('a run container', () => {
    it('is hardened: no capabilities but the supervisor’s three, none for code, no new privileges, read-only root, limits, code as a non-root user, no host mounts', async () => {
      const sandbox = await create('run_hardened');
      const inspected = await docker.docker.getContainer(sandbox.containerId).inspect();
      const host = inspected.HostConfig;
      expect(host.CapDrop).toEqual(['ALL']);
      expect(host.SecurityOpt).toContain('no-new-privileges');
      expect(host.Privileged).toBe(false);
      expect(host.ReadonlyRootfs).toBe(true);
      expect(host.Memory).toBe(LIMITS.memoryMb * MIB);
      expect(host.NanoCpus).toBe(LIMITS.cpus * 1e9);
      expect(host.PidsLimit).toBe(LIMITS.pidsLimit);
      expect(host.Init).toBe(true);
      expect(host.NetworkMode).toBe(driver.network.name);
      // The supervisor's user; task code runs as 10001 (below).
      expect(inspected.Config.User).toBe('0:0');
      expect(host.CapAdd).toEqual(['SETUID', 'SETGID', 'KILL']);
      expect(inspected.Config.Env.join('\n')).not.toContain('ERRAND_SUPERVISOR_TOKEN');
      expect(inspected.Mounts.filter((mount) => mount.Type !== 'tmpfs')).toEqual([]);
      expect(JSON.stringify(inspected.Mounts) + JSON.stringify(host.Binds ?? [])).not.toContain('docker.sock');
      expect(inspected.Config.Labels).toMatchObject({
        'errand.sandbox': '1',
        'errand.run': 'run_hardened',
        [DAEMON_LABEL]: driver.instanceId,
        [INSTALLATION_LABEL]: installationId(home.path),
        'errand.pid': String(process.pid),
      });

      const inside = await bash(
        sandbox,
        'id -u; grep -E "^Cap(Inh|Prm|Eff|Amb)" /proc/self/status; touch /usr/x 2>/dev/null && echo root-writable || echo root-readonly; ' +
          'ls /var/run/docker.sock 2>/dev/null || echo no-socket; ' +
          'cat /proc/sys/net/ipv6/conf/all/disable_ipv6',
      );
      expect(inside.stdout.split('\n')).toEqual([
        '10001',
        'CapInh:\t0000000000000000',
        'CapPrm:\t0000000000000000',
        'CapEff:\t0000000000000000',
        'CapAmb:\t0000000000000000',
        'root-readonly',
        'no-socket',
        '1',
        '',
      ]);
    });

    it('runs bash, python and node in the workspace', async () => {
      const sandbox = await create('run_languages');
      const run = (language: 'bash' | 'python' | 'node', code: string) =>
        sandbox.exec({ language, code, timeoutMs: 20_000 }, signal());
      expect((await run('bash', 'pwd; echo $((6 * 7)) > answer.txt')).stdout).toBe('/workspace\n');
      expect((await run('python', 'print(open("answer.txt").read().strip())')).stdout).toBe('42\n');
      expect((await run('node', 'console.log(require("fs").readFileSync("answer.txt", "utf8").trim() * 2)')).stdout).toBe('84\n');
      expect((await sandbox.getFile('answer.txt')).toString()).toBe('42\n');
    });

    it('gives code the run environment, and workspace files the daemon puts there belong to the task user', async () => {
      const sandbox = await create('run_env', { SHOP_TOKEN: 'tok_visible_to_code' });
      await sandbox.putFile('inbox/order.json', Buffer.from('{}'));
      const result = await bash(sandbox, 'echo "$SHOP_TOKEN"; stat -c %u inbox inbox/order.json; echo changed > inbox/order.json');
      expect(result.stdout).toBe('tok_visible_to_code\n10001\n10001\n');
      // Handed over with the token: not in the container's configuration, nor in the supervisor's environment.
      const inspected = await docker.docker.getContainer(sandbox.containerId).inspect();
      expect(inspected.Config.Env.join('\n')).not.toContain('tok_visible_to_code');
      expect((await sandbox.getFile('inbox/order.json')).toString()).toBe('changed\n');
    });

    it('drives Chromium against a page served inside the sandbox', async () => {
      const sandbox = await create('run_browser');
      await sandbox.putFile('site/index.html', Buffer.from('<title>Inside</title><h1>Served from the sandbox</h1>'));
      const started = await bash(
        sandbox,
        'cd site && nohup python3 -m http.server 8000 --bind 127.0.0.1 >/dev/null 2>&1 &\n' +
          'for i in $(seq 100); do (echo > /dev/tcp/127.0.0.1/8000) 2>/dev/null && echo up && break; sleep 0.1; done',
      );
      expect(started.stdout).toBe('up\n');
      const navigated = await sandbox.browser({ action: 'navigate', url: 'http://127.0.0.1:8000/' }, signal());
      expect(navigated).toMatchObject({ ok: true, status: 200, title: 'Inside' });
      const read = await sandbox.browser({ action: 'read_text' }, signal());
      expect(read.text).toContain('Served from the sandbox');
      // Chromium shows untrusted pages, so it runs as the task user, like code, never as the supervisor.
      const owners = await bash(sandbox, 'ps -C chromium -o uid= | sort -u');
      expect(owners.stdout.trim()).toBe('10001');
    });
  });

  describe('the supervisor token', () => {
    /** Run as task code: everything it can read, searched for two strings it only has in halves. */
    const SEARCH = (token: string, psk: string, control: string) => `
import glob, json, os, stat
needles = {"token": (${JSON.stringify(token.slice(0, 20))} + ${JSON.stringify(token.slice(20))}).encode(),
           "psk": (${JSON.stringify(psk.slice(0, 20))} + ${JSON.stringify(psk.slice(20))}).encode(),
           "control": (${JSON.stringify(control.slice(0, 10))} + ${JSON.stringify(control.slice(10))}).encode()}
found = {name: [] for name in needles}
def search(path, data):
    for name, needle in needles.items():
        if needle in data: found[name].append(path)
def read(path):
    with open(path, "rb") as f:
        return f.read(64 * 1024 * 1024)
for path in glob.glob("/proc/[0-9]*/environ") + glob.glob("/proc/[0-9]*/cmdline"):
    try: search(path, read(path))
    except OSError: pass
skipped = {"proc", "sysfs", "cgroup", "cgroup2", "devpts", "mqueue", "devtmpfs"}
mounts = [line.split() for line in open("/proc/mounts")]
for point in sorted({m[1] for m in mounts if m[2] not in skipped and "rw" in m[3].split(",") and not m[1].startswith(("/proc", "/sys", "/dev"))}):
    for root, dirs, files in os.walk(point):
        for name in files:
            path = os.path.join(root, name)
            try:
                if stat.S_ISREG(os.lstat(path).st_mode): search(path, read(path))
            except OSError: pass
def uid(pid): return next(int(l.split()[1]) for l in open(f"/proc/{pid}/status") if l.startswith("Uid:"))
supervisor = next(int(p.split("/")[2]) for p in glob.glob("/proc/[0-9]*/cmdline") if read(p).startswith(b"/usr/local/bin/node\\0/opt/errand/supervisor/main.js\\0"))
denied = []
for path in ["/proc/1/environ", f"/proc/{supervisor}/environ", f"/proc/{supervisor}/fd/0", f"/proc/{supervisor}/mem"]:
    try: read(path)
    except PermissionError: denied.append(path)
    except OSError: pass
print(json.dumps({"found": found, "uid": os.getuid(), "supervisor": supervisor, "supervisorUid": uid(supervisor), "initUid": uid(1), "denied": denied}))
`;

    it('is nowhere task code can read, nor is the TLS key: no environment or command line, no file, not the supervisor’s memory or stdin', async () => {
      const token = `tok-${randomBytes(24).toString('hex')}`;
      const tls = newSupervisorTls();
      const control = `control-${randomBytes(8).toString('hex')}`;
      const tokenHome = tempDir('errand-docker-token-');
      const tokenDriver = await DockerDriver.start({
        docker: docker.docker,
        image: docker.image,
        home: tokenHome.path,
        logger,
        limits: LIMITS,
        warmPoolSize: 0,
        supervisorSecrets: () => ({ token, tls }),
      });
      try {
        const sandbox = await tokenDriver.create({ runId: 'run_token_search', env: { PROBE_CONTROL: control }, signal: signal() });
        // The browser's processes are searched too.
        expect(await sandbox.browser({ action: 'read_text' }, signal())).toMatchObject({ ok: true });
        const result = await sandbox.exec({ language: 'python', code: SEARCH(token, tls.psk, control), timeoutMs: 60_000 }, signal());
        expect(result.stderr).toBe('');
        const report = JSON.parse(result.stdout) as {
          found: { token: string[]; psk: string[]; control: string[] };
          uid: number;
          supervisor: number;
          supervisorUid: number;
          initUid: number;
          denied: string[];
        };
        // The search reads environments: it finds the run's own variable in its own.
        expect(report.found.control.length).toBeGreaterThan(0);
        expect(report.found.token).toEqual([]);
        expect(report.found.psk).toEqual([]);
        expect(report.uid).toBe(10001);
        expect(report.supervisorUid).toBe(0);
        expect(report.initUid).toBe(0);
        expect(report.supervisor).not.toBe(1);
        expect(report.denied).toEqual(['/proc/1/environ', `/proc/${report.supervisor}/environ`, `/proc/${report.supervisor}/fd/0`, `/proc/${report.supervisor}/mem`]);
      } finally {
        await tokenDriver.close();
        tokenHome.remove();
      }
    });
  });

  describe('network isolation', () => {
    let server: Server;
    const accepted: Socket[] = [];

    beforeAll(async () => {
      server = createServer((socket) => {
        accepted.push(socket);
        socket.destroy();
      });
      // Bound to the host's address on the sandbox bridge: the one host address a sandbox has a route to.
      await new Promise<void>((resolve) => server.listen(0, driver.network.gateway, resolve));
    });

    afterAll(async () => {
      await new Promise((resolve) => server.close(resolve));
    });

    it('refuses connections from a sandbox to ports on the host', async () => {
      const port = (server.address() as AddressInfo).port;
      // The port is open to the host itself, so a refusal from inside is the firewall's doing.
      await new Promise<void>((resolve, reject) => {
        const socket = connect(port, driver.network.gateway, () => resolve());
        socket.on('error', reject);
      });
      await until('the host-side probe to be accepted', async () => accepted.length === 1);

      const sandbox = await create('run_host_probe');
      const result = await sandbox.exec({ language: 'python', code: PROBE_CONNECT(driver.network.gateway, port), timeoutMs: 20_000 }, signal());
      expect(result.stdout.trim()).not.toBe('connected');
      expect(result.stdout.trim()).toBe('refused');
      expect(accepted).toHaveLength(1);
    });

    it('keeps sandboxes from reaching each other', async () => {
      const [first, second] = await Promise.all([create('run_peer_a'), create('run_peer_b')]);
      const result = await first.exec({ language: 'python', code: PROBE_CONNECT(second.address, 7801), timeoutMs: 20_000 }, signal());
      expect(result.stdout.trim()).not.toBe('connected');
    });

    it('has its rules installed, the jumps into them first in INPUT and DOCKER-USER', async () => {
      const rules = await listSandboxFirewallRules();
      expect(rules).toContain(`-A DOCKER-USER -i ${driver.network.bridge} -j ${FORWARD_CHAIN}`);
      expect(rules).toContain(`-A INPUT -i ${driver.network.bridge} -j ${INPUT_CHAIN}`);
      for (const range of ['169.254.0.0/16', '10.0.0.0/8', '192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24']) {
        expect(rules).toContain(`-A ${FORWARD_CHAIN} -d ${range} -j DROP`);
      }
    });

    it('drops the host’s connected networks and gateways, read from its routes and followed as they change', async () => {
      const dropRule = (network: string) => `-A ${FORWARD_CHAIN} -d ${network} -j DROP`;
      const connected = connectedNetworks(await readHostRoutes(4), 4);
      expect(driver.firewall.connectedNetworks).toEqual(connected);
      const rules = await listSandboxFirewallRules();
      for (const network of connected) expect(rules).toContain(dropRule(network));

      // A link of this host's own on a TEST-NET subnet: only an address and routes are added, and nothing is sent.
      const link = `errt${randomBytes(3).toString('hex')}`;
      const has = async (rule: string) => (await listSandboxFirewallRules()).includes(rule);
      try {
        await execa('ip', ['link', 'add', link, 'type', 'veth', 'peer', 'name', `${link}p`]);
        await execa('ip', ['addr', 'add', '203.0.113.77/28', 'dev', link]);
        await execa('ip', ['link', 'set', link, 'up']);
        await until('the new connected network to be dropped', () => has(dropRule('203.0.113.64/28')), 15_000);
        await execa('ip', ['route', 'add', '198.18.200.0/24', 'via', '203.0.113.78', 'dev', link]);
        await until('the new gateway to be dropped', () => has(dropRule('203.0.113.78/32')), 15_000);
        await execa('ip', ['addr', 'del', '203.0.113.77/28', 'dev', link]);
        await until('the rules of the removed network to go', async () => !(await has(dropRule('203.0.113.64/28'))) && !(await has(dropRule('203.0.113.78/32'))), 15_000);
        expect(await has(dropRule('203.0.113.0/24'))).toBe(true);
      } finally {
        await execa('ip', ['link', 'del', link]).catch(() => undefined);
      }
    });
  });

  describe('limits', () => {
    it('stops a fork bomb at the process limit; the sandbox recovers and another keeps working', async () => {
      const [bombed, bystander] = await Promise.all([create('run_fork_bomb'), create('run_bystander')]);
      const bomb = await bash(bombed, ':(){ :|:& };:', 10_000);
      expect(bomb.stderr).toContain('Resource temporarily unavailable');
      expect((await bash(bystander, 'echo still-here')).stdout).toBe('still-here\n');
      const recovered = await until('the bombed sandbox to run code again', async () => {
        const result = await bash(bombed, 'echo alive', 5_000).catch(() => null);
        return result?.stdout === 'alive\n' ? result : null;
      });
      expect(recovered.exitCode).toBe(0);
    });

    it('kills code that allocates past the memory limit, not the sandbox', async () => {
      const [hog, bystander] = await Promise.all([create('run_memory_hog'), create('run_bystander_2')]);
      const result = await hog.exec(
        { language: 'python', code: 'chunks = []\nwhile True:\n    chunks.append(b"x" * (32 * 1024 * 1024))\n', timeoutMs: 30_000 },
        signal(),
      );
      expect(result.timedOut).toBe(false);
      expect(result.exitCode).not.toBe(0);
      expect((await bash(hog, 'echo alive')).stdout).toBe('alive\n');
      expect((await bash(bystander, 'echo still-here')).stdout).toBe('still-here\n');
      const inspected = await docker.docker.getContainer(hog.containerId).inspect();
      expect(inspected.State.Running).toBe(true);
      expect(inspected.HostConfig.Memory).toBe(LIMITS.memoryMb * MIB);
    });
  });

  describe('destroy', () => {
    it('removes the container within 5 s, even with code still running', async () => {
      const sandbox = await create('run_destroy');
      await bash(sandbox, 'nohup sleep 600 >/dev/null 2>&1 &');
      const deadline = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), 5_000).unref());
      expect(await Promise.race([sandbox.destroy().then(() => 'done' as const), deadline])).toBe('done');
      await expect(docker.docker.getContainer(sandbox.containerId).inspect()).rejects.toMatchObject({ statusCode: 404 });
    });

    it('is idempotent, and later calls fail as destroyed', async () => {
      const sandbox = await create('run_destroy_twice');
      await Promise.all([sandbox.destroy(), sandbox.destroy()]);
      await sandbox.destroy();
      const error = await bash(sandbox, 'true').catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(SandboxError);
      expect((error as SandboxError).code).toBe('destroyed');
    });
  });

  describe('removeOrphans', () => {
    it('removes what is provably nobody’s, logging each by name, and leaves other installations’ containers alone', async () => {
      const self = currentProcessIdentity()!;
      const freePid = spawnSync(process.execPath, ['-e', '']).pid;
      const ownInstallation = installationId(home.path);
      const leftover = async (name: string, labels: Record<string, string>) => {
        const unique = `errand-orphan-test-${name}-${randomBytes(3).toString('hex')}`;
        const container = await docker.docker.createContainer({ name: unique, Image: docker.image, Labels: { 'errand.sandbox': '1', ...labels } });
        return { name: unique, container };
      };
      const of = (installation: string, identity: ProcessIdentity | null) => ({
        [INSTALLATION_LABEL]: installation,
        [DAEMON_LABEL]: `instance-${randomBytes(3).toString('hex')}`,
        ...processLabels(identity),
      });
      const removed = [
        // An earlier daemon of this data directory, in a pid namespace this process cannot see into.
        await leftover('earlier-own', of(ownInstallation, { ...self, pidNamespace: 'pid:[1]' })),
        // Another installation whose daemon's pid is free.
        await leftover('dead-free-pid', of('other-installation', { ...self, pid: freePid })),
        // Another installation whose daemon's pid now belongs to a later process (this one).
        await leftover('dead-reused-pid', of('other-installation', { ...self, startTime: String(Number(self.startTime) + 1) })),
      ];
      const kept = [
        // Another installation whose daemon runs (it is this process).
        await leftover('live', of('other-installation', self)),
        // Another installation whose daemon's pid is free here, but counted in another pid namespace or boot.
        await leftover('other-pidns', of('other-installation', { ...self, pid: freePid, pidNamespace: 'pid:[1]' })),
        await leftover('other-boot', of('other-installation', { ...self, pid: freePid, bootId: '00000000-0000-4000-8000-000000000000' })),
        // Labels of an earlier Errand: a hash of this data directory's path, which another installation may share.
        await leftover('same-path', { 'errand.home': createHash('sha256').update(home.path).digest('hex').slice(0, 16), 'errand.host': hostname(), 'errand.pid': String(freePid) }),
      ];
      const lines: string[] = [];
      const recording = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
      const sweeper = await DockerDriver.start({ docker: docker.docker, image: docker.image, home: home.path, logger: recording, limits: LIMITS, warmPoolSize: 0 });
      try {
        // The suite's own driver serves the same data directory from this (live) process: its containers stay.
        const live = await create('run_survivor');
        expect(await sweeper.removeOrphans()).toBeGreaterThanOrEqual(1);
        for (const { container } of removed) await expect(container.inspect()).rejects.toMatchObject({ statusCode: 404 });
        for (const { container } of kept) expect((await container.inspect()).Id).toBe(container.id);
        expect((await bash(live, 'echo kept')).stdout).toBe('kept\n');
        // Other test files on this engine may leave orphans of daemons they killed, which are removed too; and their
        // daemons, starting, may remove the provably dead ones here before this sweep does, for the same reason.
        const reasons = new Map(
          lines
            .map((line) => JSON.parse(line) as { msg: string; container?: string; reason?: string })
            .filter((line) => line.msg === 'removed orphaned sandbox container')
            .map((line) => [line.container, line.reason]),
        );
        expect(reasons.get(removed[0]!.name)).toBe('left by an earlier daemon of this data directory');
        for (const { name } of removed.slice(1)) expect(reasons.get(name) ?? 'its daemon is provably dead').toBe('its daemon is provably dead');
        for (const { name } of kept) expect(reasons.has(name)).toBe(false);
      } finally {
        await sweeper.close();
        for (const { container } of [...removed, ...kept]) await container.remove({ force: true }).catch(() => undefined);
      }
    });
  });
});

describe.skipIf(!docker.available)('DockerDriver warm pool', () => {
  let home: ReturnType<typeof tempDir>;
  let driver: DockerDriver;

  beforeAll(async () => {
    home = tempDir('errand-docker-pool-');
    driver = await DockerDriver.start({ docker: docker.docker, image: docker.image, home: home.path, logger, limits: LIMITS, warmPoolSize: 2 });
  });

  afterAll(async () => {
    await driver?.close();
    home?.remove();
  });

  it('hands out distinct pooled containers, refills, and starts runs with an environment cold', async () => {
    await until('the pool to fill', async () => driver.warmCount === 2);
    const first = await driver.create({ runId: 'run_pool_1', env: {}, signal: signal() });
    const second = await driver.create({ runId: 'run_pool_2', env: {}, signal: signal() });
    expect(first.containerId).not.toBe(second.containerId);
    for (const sandbox of [first, second]) {
      const labels = (await docker.docker.getContainer(sandbox.containerId).inspect()).Config.Labels;
      expect(labels['errand.pool']).toBe('1');
      expect((await bash(sandbox, 'echo ready')).stdout).toBe('ready\n');
    }

    const withEnv = await driver.create({ runId: 'run_pool_env', env: { GREETING: 'hello' }, signal: signal() });
    const labels = (await docker.docker.getContainer(withEnv.containerId).inspect()).Config.Labels;
    expect(labels['errand.pool']).toBeUndefined();
    expect(labels['errand.run']).toBe('run_pool_env');
    expect((await bash(withEnv, 'echo $GREETING')).stdout).toBe('hello\n');

    await until('the pool to refill', async () => driver.warmCount === 2);
    const third = await driver.create({ runId: 'run_pool_3', env: {}, signal: signal() });
    expect([first.containerId, second.containerId]).not.toContain(third.containerId);

    await Promise.all([first, second, third, withEnv].map((sandbox) => sandbox.destroy()));
    await expect(docker.docker.getContainer(first.containerId).inspect()).rejects.toMatchObject({ statusCode: 404 });
  });

  it('removes its pooled containers on close', async () => {
    await until('the pool to fill', async () => driver.warmCount === 2);
    await driver.close();
    const left = await docker.docker.listContainers({ all: true, filters: { label: [`${INSTALLATION_LABEL}=${installationId(home.path)}`] } });
    expect(left).toEqual([]);
    await expect(driver.create({ runId: 'run_after_close', env: {}, signal: signal() })).rejects.toBeInstanceOf(SandboxError);
  });
});

describe.skipIf(!docker.available)('DockerDriver warm pool browser', () => {
  const token = `tok-${randomBytes(24).toString('hex')}`;
  const tls = newSupervisorTls();
  const health = (sandbox: DockerSandbox) =>
    new SupervisorClient({ baseUrl: `https://${sandbox.address}:${SUPERVISOR_PORT}`, token, tls }).health(signal());
  const start = (home: string, warmPoolBrowser?: boolean) =>
    DockerDriver.start({
      docker: docker.docker,
      image: docker.image,
      home,
      logger,
      limits: LIMITS,
      warmPoolSize: 1,
      supervisorSecrets: () => ({ token, tls }),
      ...(warmPoolBrowser === undefined ? {} : { warmPoolBrowser }),
    });

  it('starts a pooled container\'s browser before a run takes it; the run browses, is recorded and is watched; a run that never uses it is not recorded', async () => {
    const home = tempDir('errand-docker-pool-browser-');
    const driver = await start(home.path);
    try {
      await until('the pool to fill', async () => driver.warmCount === 1);
      const sandbox = await driver.create({ runId: 'run_warm_browser', env: {}, signal: signal() });
      expect(await health(sandbox)).toMatchObject({ browser: true });

      await sandbox.startRecording(signal());
      const watching = new AbortController();
      const frames = await sandbox.liveFrames(watching.signal);
      // The sandbox cannot reach the host: the page is served inside it.
      const serve = await bash(
        sandbox,
        `mkdir -p site && echo '<title>Warm</title><h1 style="font-size:80px">warm start</h1>' > site/warm.html\n` +
          `cd site && nohup python3 -m http.server 8000 --bind 127.0.0.1 >/dev/null 2>&1 &\n` +
          `for i in $(seq 100); do (echo > /dev/tcp/127.0.0.1/8000) 2>/dev/null && echo serving && break; sleep 0.1; done`,
      );
      expect(serve.stdout).toBe('serving\n');
      const result = await sandbox.browser({ action: 'navigate', url: 'http://127.0.0.1:8000/warm.html' }, signal());
      expect(result).toMatchObject({ ok: true, title: 'Warm', status: 200 });
      const frame = await firstFrameOf(frames, '/warm.html');
      watching.abort();
      expect(frame.width).toBeGreaterThan(0);

      const recorded = await sandbox.finishRecording([], signal());
      expect(recorded?.trace.length).toBeGreaterThan(0);
      expect(recorded?.video?.length).toBeGreaterThan(0);

      // A run that never uses the browser it was handed running is not recorded.
      await until('the pool to refill', async () => driver.warmCount === 1);
      const codeOnly = await driver.create({ runId: 'run_warm_code_only', env: {}, signal: signal() });
      expect(await health(codeOnly)).toMatchObject({ browser: true });
      await codeOnly.startRecording(signal());
      expect((await bash(codeOnly, 'echo code only')).stdout).toBe('code only\n');
      expect(await codeOnly.finishRecording([], signal())).toBeNull();
      await codeOnly.destroy();

      const cold = await driver.create({ runId: 'run_cold_browser', env: { GREETING: 'hello' }, signal: signal() });
      expect(await health(cold)).toMatchObject({ browser: false });
      await Promise.all([sandbox.destroy(), cold.destroy()]);
    } finally {
      await driver.close();
      home.remove();
    }
  }, 120_000);

  it('leaves the browser to the run with warmPoolBrowser off', async () => {
    const home = tempDir('errand-docker-pool-browser-off-');
    const driver = await start(home.path, false);
    try {
      await until('the pool to fill', async () => driver.warmCount === 1);
      const sandbox = await driver.create({ runId: 'run_no_warm_browser', env: {}, signal: signal() });
      expect(await health(sandbox)).toMatchObject({ browser: false });
      await sandbox.destroy();
    } finally {
      await driver.close();
      home.remove();
    }
  }, 120_000);
});

/** Reads the live view's events up to the first frame of a page whose URL holds `marker`. */
async function firstFrameOf(stream: ReadableStream<Uint8Array>, marker: string): Promise<LiveFrame> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) throw new Error('the frame stream ended before a frame of the page');
    buffered += decoder.decode(value, { stream: true });
    for (const event of buffered.split('\n\n').slice(0, -1)) {
      const data = /^event: frame\ndata: (.*)$/s.exec(event)?.[1];
      if (data === undefined) continue;
      const frame = JSON.parse(data) as LiveFrame;
      if (frame.url?.includes(marker) === true) {
        await reader.cancel();
        return frame;
      }
    }
    buffered = buffered.slice(buffered.lastIndexOf('\n\n') + 2);
  }
}

describe.skipIf(!docker.available)('selectDriver', () => {
  it('picks docker under auto when the engine answers and the image is built', async () => {
    const home = tempDir('errand-select-');
    try {
      const config = loadConfig({ home: home.path, env: { ERRAND_SANDBOX_WARM_POOL_SIZE: '0', ERRAND_SANDBOX_IMAGE: docker.image } });
      const driver = await selectDriver({ config, home: home.path, logger });
      try {
        expect(driver.name).toBe('docker');
      } finally {
        await driver.close();
      }
    } finally {
      home.remove();
    }
  });

  it('refuses docker when the image is missing, and falls back to local under auto', async () => {
    const home = tempDir('errand-select-');
    try {
      const env = { ERRAND_SANDBOX_IMAGE: 'errand-sandbox:does-not-exist' };
      const strict = loadConfig({ home: home.path, env: { ...env, ERRAND_SANDBOX_DRIVER: 'docker' } });
      await expect(selectDriver({ config: strict, home: home.path, logger })).rejects.toThrow(/errand-sandbox:does-not-exist/);
      const auto = loadConfig({ home: home.path, env });
      const warnings: string[] = [];
      const recording = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(line) });
      const driver = await selectDriver({ config: auto, home: home.path, logger: recording });
      try {
        expect(driver.name).toBe('local');
        expect(warnings.join('')).toContain('errand-sandbox:does-not-exist');
      } finally {
        await driver.close();
      }
    } finally {
      home.remove();
    }
  });
});
