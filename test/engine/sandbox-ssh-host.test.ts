/**
 * A sandbox host reached over SSH (issue 26, item 1): `ssh://root@ADDRESS` with its own client key and known_hosts,
 * in front of a second dockerd in a network namespace (test/fixtures/second-dockerd.ts, second-dockerd-sshd.ts).
 * Its host key is checked strictly, as ssh's `StrictHostKeyChecking yes`: while known_hosts does not list it, or lists
 * another key for the address, the host is down, GET /v1/status (and `errand sandbox build --host`) says why and what
 * to do, and its runs wait queued; once the operator adds the host's key, the host is used without a restart (the key
 * of the type known_hosts lists, which the daemon asks the host for first): a code run runs there, in a container of
 * that engine, behind the firewall the daemon put on that host through its helper container, over SSH. All of it
 * goes over one SSH connection, kept (src/sandbox/docker/ssh-connection.ts); one the host drops is replaced at the
 * next call, and the daemon's stop ends it.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installationId } from '../../src/runtime/installation-id.js';
import { FIREWALL_HELPER_LABEL } from '../../src/sandbox/docker/host-firewall.js';
import { INSTALLATION_LABEL, SANDBOX_LABEL } from '../../src/sandbox/docker/labels.js';
import { escapeRegExp } from '../../src/text/escape-regexp.js';
import { dockerAvailability } from '../fixtures/docker.js';
import { SecondDockerd, secondDockerdAvailability } from '../fixtures/second-dockerd.js';
import { SecondDockerdSshd } from '../fixtures/second-dockerd-sshd.js';
import { toolResults, toolUse, type AnthropicRequest } from '../fixtures/scripted-anthropic.js';
import { tempDir } from '../fixtures/temp-dir.js';
import { runCli } from '../cli/run-cli.js';
import { createRun, startEngine, until, waitForRun, type EngineHarness } from './harness.js';

const docker = await dockerAvailability();
const second = docker.available ? secondDockerdAvailability() : { available: false, reason: null };

interface HostStatus {
  name: string;
  state: 'up' | 'down';
  problem: string | null;
  firewall: { required: boolean; installed: boolean | null; detail: string | null };
}

describe.skipIf(!second.available)('a sandbox host reached over SSH', () => {
  let engine: SecondDockerd;
  let sshd: SecondDockerdSshd;
  let h: EngineHarness;
  const dir = tempDir('errand-ssh-host-');
  const knownHosts = join(dir.path, 'known_hosts');
  /** A run made while the host was refused, which waits for it. */
  let waiting: string;
  const hostsConfig = () => JSON.stringify({ far: { url: sshd.url, ssh: { key: sshd.clientKey, known_hosts: knownHosts }, capacity: { runs: 2 } } });

  const host = async (): Promise<HostStatus> => {
    const res = await h.daemon.api('GET', '/v1/status');
    expect(res.status).toBe(200);
    return (res.body.sandbox.hosts as HostStatus[]).find((entry) => entry.name === 'far')!;
  };
  /** The host once `ready` holds of it; on a timeout, the error says how it stood last and what the sshd and daemon logged. */
  const hostWhen = async (what: string, ready: (host: HostStatus) => boolean, timeoutMs?: number): Promise<HostStatus> => {
    let last: HostStatus | null = null;
    try {
      return await until(
        what,
        async () => {
          last = await host();
          return ready(last) ? last : null;
        },
        timeoutMs,
      );
    } catch (error) {
      throw new Error(`${(error as Error).message}; the host stood: ${JSON.stringify(last)}\nsshd:\n${sshd.recentLog}\ndaemon:\n${h.daemon.logs().slice(-3000)}`);
    }
  };

  beforeAll(async () => {
    // Its own cached data root: sandbox-hosts.test.ts may hold the default one at the same time.
    engine = await SecondDockerd.start(docker.image, 'tests-ssh');
    console.info(`[second dockerd over ssh] up; loading ${docker.image} into it took ${engine.imageLoadMs} ms (0: cached from an earlier run)`);
    sshd = await SecondDockerdSshd.start(engine);
    // At first, known_hosts vouches for another host only.
    writeFileSync(knownHosts, `127.0.0.9 ${sshd.knownHostsLine.split(' ').slice(1).join(' ')}\n`);
    h = await startEngine({
      env: {
        ERRAND_SANDBOX_DRIVER: 'docker',
        ERRAND_SANDBOX_IMAGE: docker.image,
        ERRAND_SANDBOX_WARM_POOL_SIZE: '0',
        // Each check is an SSH connection: room for a handshake on a busy machine.
        ERRAND_SANDBOX_HOST_CHECK_MS: '2000',
        ERRAND_SANDBOX_HOSTS: hostsConfig(),
      },
    });
  }, 180_000);

  afterAll(async () => {
    await h?.close();
    const leftovers = await engine?.docker.listContainers({ all: true, filters: { label: [`${SANDBOX_LABEL}=1`] } }).catch(() => []);
    for (const container of leftovers ?? []) await engine.docker.getContainer(container.Id).remove({ force: true }).catch(() => undefined);
    await sshd?.stop();
    await engine?.stop();
    dir.remove();
  }, 60_000);

  it('is down while known_hosts does not list its key, or lists another one, saying which key and what to do; its runs wait queued', async () => {
    const presented = `the host key of ${engine.address}:22 (ssh-ed25519 ${sshd.hostKeyFingerprint})`;
    const unknown = await hostWhen('the host refused for a key known_hosts lacks', (now) => now.state === 'down' && now.problem?.includes('is not in') === true);
    expect(unknown.problem).toBe(
      `${presented} is not in ${knownHosts}: add it with \`ssh-keyscan -p 22 ${engine.address} >> ${knownHosts}\`, after checking its fingerprint on the host (\`ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub\`)`,
    );
    waiting = await createRun(h.daemon, { prompt: 'Compute six times seven with python' });

    // Another key for the address: a man-in-the-middle, as far as the daemon can tell.
    const other = join(dir.path, 'other');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', '', '-f', other]);
    writeFileSync(knownHosts, `${engine.address} ${readFileSync(`${other}.pub`, 'utf8').trim()}\n`);
    const changed = await hostWhen('the host refused for a changed key', (now) => now.state === 'down' && now.problem?.includes('does not match') === true);
    expect(changed.problem).toMatch(new RegExp(`^${escapeRegExp(presented)} does not match the one ${escapeRegExp(knownHosts)} lists for it on line 1: possibly a man-in-the-middle\\. `));
    // The fingerprint, never the key.
    expect(changed.problem).not.toContain(sshd.knownHostsLine.split(' ')[2]);
    // `errand sandbox build --host` checks the key as the daemon does, and says the same.
    const build = await runCli(['--home', h.daemon.home, 'sandbox', 'build', '--image', docker.image, '--host', 'far'], { env: { ERRAND_SANDBOX_HOSTS: hostsConfig() } });
    expect(build.code).toBe(1);
    expect(build.stderr).toContain(`host far: ${presented} does not match the one ${knownHosts} lists for it on line 1: possibly a man-in-the-middle.`);
    expect((await h.daemon.api('GET', `/v1/runs/${waiting}`)).body).toMatchObject({ status: 'queued', sandbox: { host: null } });
    expect(await engine.docker.listContainers({ all: true, filters: { label: [`${SANDBOX_LABEL}=1`, `${INSTALLATION_LABEL}=${installationId(h.daemon.home)}`] } })).toEqual([]);
  });

  it("takes runs once known_hosts has the host's key, without a restart: the waiting code run runs in that engine, behind the firewall put there over SSH", async () => {
    let containers: string[] = [];
    h.model.script([
      async () => {
        containers = (await engine.docker.listContainers({ filters: { label: [`${SANDBOX_LABEL}=1`, `${INSTALLATION_LABEL}=${installationId(h.daemon.home)}`] } }))
          .filter((container) => container.Labels[FIREWALL_HELPER_LABEL] === undefined)
          .map((container) => container.Id);
        return toolUse('run_code', { language: 'python', code: 'print(6 * 7)' });
      },
      (request: AnthropicRequest) => {
        const answer = Number(/stdout:\n(\d+)/.exec(toolResults(request)[0]?.text ?? '')?.[1]);
        return toolUse('finish', { result: { answer }, confidence: 'high' });
      },
    ]);
    // Its ECDSA key alone, which the daemon asks the host for first since that is the type known_hosts lists for it.
    writeFileSync(knownHosts, `# the sandbox hosts\n${sshd.ecdsaKnownHostsLine}\n`);
    // Its first start (network, firewall helper, orphan sweep) is a few dozen API calls, each a new SSH connection.
    const up = await hostWhen('the host up', (now) => now.state === 'up', 120_000);
    expect(up).toMatchObject({ problem: null, firewall: { required: true, installed: true } });

    const run = await waitForRun(h.daemon, waiting);
    expect(run).toMatchObject({ status: 'succeeded', result: { answer: 42 }, sandbox: { label: null, host: 'far' } });
    // Its sandbox was a container of the engine behind the sshd.
    expect(containers).toHaveLength(1);
    // The daemon's helper container put the sandbox firewall in that engine's network namespace.
    expect(engine.inNamespace('iptables -S DOCKER-USER')).toContain('-j ERRAND-SANDBOX-FWD');
    // The host's first start, its checks and the run's sandbox (some dozens of API calls) went over one SSH
    // connection, signed in once: the refused ones signed in never.
    expect(sshd.signIns).toBe(1);
  });

  it('opens another SSH connection when the host drops its one, and goes on; `errand sandbox build --host` signs in once and exits', async () => {
    expect(sshd.dropConnections()).toBeGreaterThan(0);
    // The next check opens a new one and finds the host as it was.
    await until('a new SSH connection', async () => sshd.signIns === 2 || null);
    expect(await hostWhen('the host up over the new connection', (now) => now.state === 'up')).toMatchObject({ problem: null, firewall: { installed: true } });
    const build = await runCli(['--home', h.daemon.home, 'sandbox', 'build', '--image', docker.image, '--host', 'far'], { env: { ERRAND_SANDBOX_HOSTS: hostsConfig() } });
    expect(build).toMatchObject({ code: 0, stdout: expect.stringContaining(`host far has ${docker.image}`) });
    expect(sshd.signIns).toBe(3);
  });

  it('stops at SIGTERM, ending its SSH connection as a client does: nothing of it holds the daemon', async () => {
    expect(await h.daemon.stop()).toBe(0);
    // A client's goodbye (reason 11, "disconnected by application"): `errand sandbox build --host`'s, then the daemon's.
    const goodbyes = () => sshd.recentLog.match(/^Received disconnect from \S+ port \d+:11:/gm) ?? [];
    await until("the daemon's goodbye at the sshd", () => goodbyes().length === 2 || null);
  });
});
