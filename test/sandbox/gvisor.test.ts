/**
 * Sandboxes under gVisor (issue 26, item 3): with `sandbox.runtime: runsc` the docker driver runs each container
 * under the engine's runsc runtime, and the hardening, the task user, the firewall and the browser hold there as
 * they do under runc (docker-driver.test.ts). The engine must have runsc registered; CI registers it (.ci/run).
 */
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DockerDriver } from '../../src/sandbox/docker/docker-driver.js';
import type { DockerSandbox } from '../../src/sandbox/docker/docker-sandbox.js';
import { SandboxError } from '../../src/sandbox/sandbox-error.js';
import { dockerAvailability, runscAvailability } from '../fixtures/docker.js';
import { PROBE_CONNECT } from '../fixtures/probe-connect.js';
import { tempDir } from '../fixtures/temp-dir.js';

const docker = await dockerAvailability();
const runsc = await runscAvailability(docker);
const logger = pino({ level: 'silent' });
// The defaults: gVisor's own kernel counts in the container's memory and processes, and Chromium died under
// 1 GB or 256 processes (docs/operations.md, "gVisor").
const LIMITS = { memoryMb: 2048, cpus: 1, pidsLimit: 512 };
// gVisor's ptrace platform starts a sandbox and Chromium several times slower than runc.
const signal = () => AbortSignal.timeout(120_000);

describe.skipIf(!docker.available)('sandbox.runtime', () => {
  it('refuses a runtime the engine has not registered, naming the ones it has and where to read how', async () => {
    const home = tempDir('errand-runtime-');
    try {
      const start = DockerDriver.start({ docker: docker.docker, image: docker.image, home: home.path, logger, limits: LIMITS, warmPoolSize: 0, runtime: 'nosuch' });
      await expect(start).rejects.toThrow(SandboxError);
      await expect(start).rejects.toThrow(/sandbox\.runtime is nosuch, but the Docker engine has no runtime of that name \(it has [^)]*runc[^)]*\).*docs\/operations\.md/);
    } finally {
      home.remove();
    }
  });
});

describe.skipIf(!runsc)('sandboxes under gVisor (runsc)', () => {
  let home: ReturnType<typeof tempDir>;
  let driver: DockerDriver;
  const sandboxes: DockerSandbox[] = [];
  const create = async (runId: string) => {
    const sandbox = await driver.create({ runId, env: {}, signal: signal() });
    sandboxes.push(sandbox);
    return sandbox;
  };
  const bash = (sandbox: DockerSandbox, code: string) => sandbox.exec({ language: 'bash', code, timeoutMs: 60_000 }, signal());

  beforeAll(async () => {
    home = tempDir('errand-gvisor-');
    driver = await DockerDriver.start({ docker: docker.docker, image: docker.image, home: home.path, logger, limits: LIMITS, warmPoolSize: 0, runtime: 'runsc' });
  });

  afterEach(async () => {
    await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.destroy()));
  });

  afterAll(async () => {
    await driver?.close();
    home?.remove();
  });

  it('reports the runtime', async () => {
    expect(await driver.report()).toMatchObject({ driver: 'docker', isolated: true, runtime: 'runsc', firewall: { installed: true } });
  });

  it('runs the hardened container under gVisor’s kernel: task code as the sandbox user with no capabilities, a read-only root, no socket, no IPv6 address', async () => {
    const sandbox = await create('run_gvisor_hardened');
    const inspected = await docker.docker.getContainer(sandbox.containerId).inspect();
    expect(inspected.HostConfig.Runtime).toBe('runsc');
    expect(inspected.HostConfig.CapDrop).toEqual(['ALL']);
    expect(inspected.HostConfig.SecurityOpt).toContain('no-new-privileges');
    expect(inspected.HostConfig.ReadonlyRootfs).toBe(true);
    const inside = await bash(
      sandbox,
      'id -u; grep -E "^CapEff" /proc/self/status; touch /usr/x 2>/dev/null && echo root-writable || echo root-readonly; ' +
        'ls /var/run/docker.sock 2>/dev/null || echo no-socket; wc -l < /proc/net/if_inet6; dmesg | grep -c gVisor',
    );
    expect(inside.stdout.split('\n')).toEqual(['10001', 'CapEff:\t0000000000000000', 'root-readonly', 'no-socket', '0', expect.stringMatching(/^[1-9]/), '']);
  });

  it('runs bash, python and node', async () => {
    const sandbox = await create('run_gvisor_languages');
    expect((await bash(sandbox, 'echo $((6 * 7)) > answer.txt; cat answer.txt')).stdout).toBe('42\n');
    expect((await sandbox.exec({ language: 'python', code: 'print(open("answer.txt").read().strip())', timeoutMs: 60_000 }, signal())).stdout).toBe('42\n');
    expect((await sandbox.exec({ language: 'node', code: 'console.log(require("fs").readFileSync("answer.txt", "utf8").trim() * 2)', timeoutMs: 60_000 }, signal())).stdout).toBe('84\n');
  });

  describe('the firewall', () => {
    let server: Server;
    const accepted: Socket[] = [];

    beforeAll(async () => {
      server = createServer((socket) => {
        accepted.push(socket);
        socket.destroy();
      });
      await new Promise<void>((resolve) => server.listen(0, driver.network.gateway, resolve));
    });

    afterAll(async () => {
      await new Promise((resolve) => server.close(resolve));
    });

    it('refuses connections from a sandbox to ports on the host, and between sandboxes', async () => {
      const port = (server.address() as AddressInfo).port;
      const [first, second] = await Promise.all([create('run_gvisor_a'), create('run_gvisor_b')]);
      const toHost = await first.exec({ language: 'python', code: PROBE_CONNECT(driver.network.gateway, port), timeoutMs: 60_000 }, signal());
      expect(toHost.stdout.trim()).toBe('refused');
      expect(accepted).toHaveLength(0);
      const toPeer = await first.exec({ language: 'python', code: PROBE_CONNECT(second.address, 7801), timeoutMs: 60_000 }, signal());
      expect(toPeer.stdout.trim()).not.toBe('connected');
    });
  });

  it('drives Chromium, as the task user, against a page served inside the sandbox', async () => {
    const sandbox = await create('run_gvisor_browser');
    await sandbox.putFile('site/index.html', Buffer.from('<title>Inside gVisor</title><h1>Served under runsc</h1>'));
    const started = await bash(
      sandbox,
      'cd site && nohup python3 -m http.server 8000 --bind 127.0.0.1 >/dev/null 2>&1 &\n' +
        'for i in $(seq 300); do (echo > /dev/tcp/127.0.0.1/8000) 2>/dev/null && echo up && break; sleep 0.1; done',
    );
    expect(started.stdout).toBe('up\n');
    expect(await sandbox.browser({ action: 'navigate', url: 'http://127.0.0.1:8000/' }, signal())).toMatchObject({ ok: true, status: 200, title: 'Inside gVisor' });
    expect((await sandbox.browser({ action: 'read_text' }, signal())).text).toContain('Served under runsc');
    expect((await bash(sandbox, 'ps -C chromium -o uid= | sort -u')).stdout.trim()).toBe('10001');
  });
});
