import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Status, SandboxHostStatus } from '../../cli/api.js';
import { tempDir } from '../fixtures/temp-dir.js';
import { runCli } from './run-cli.js';
import { status } from './tui/fake-source.js';

const KEY = 'ek_test_hostsfake';
/** Why an ssh:// host is down, as the daemon reports it. */
const REFUSED_KEY =
  'the host key of 10.0.0.2:22 (ssh-ed25519 SHA256:+DiY3wvvV6TuJJhbpZisF/zLDA0zPMSvHdkr4UvCOqU) is not in /root/.ssh/known_hosts: add it with `ssh-keyscan -p 22 10.0.0.2 >> /root/.ssh/known_hosts`, after checking its fingerprint on the host (`ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub`)';

function host(name: string, overrides: Partial<SandboxHostStatus> = {}): SandboxHostStatus {
  return {
    name,
    url: `tcp://${name}.example:2376`,
    state: 'up',
    problem: null,
    capacity: { runs: 8, memory_mb: 16384 },
    load: { runs: 3, memory_mb: 6144 },
    pool: { size: 2, ready: 2 },
    runtime: 'runc',
    labels: [],
    firewall: { required: true, installed: true, detail: 'on ' + name + ': 14 rules in ERRAND-SANDBOX-FWD and 4 in ERRAND-SANDBOX-IN' },
    ...overrides,
  };
}

/**
 * A daemon whose GET /v1/status the test sets (the CLI's side of issue 26: the hosts themselves are the daemon's):
 * real HTTP on loopback, the key checked as the daemon checks it, and GET /v1/projects for doctor's key check.
 */
class FakeDaemon {
  answer: unknown = status();
  private constructor(readonly server: Server) {}
  static async start(): Promise<FakeDaemon> {
    let fake: FakeDaemon | null = null;
    const server = createServer((req, res) => {
      const send = (code: number, body: unknown) => res.writeHead(code, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.headers.authorization !== `Bearer ${KEY}`) return send(401, { error: { type: 'authentication_error', code: 'invalid_api_key', message: 'bad key' } });
      if (req.method === 'GET' && req.url === '/v1/status') return send(200, fake!.answer);
      if (req.method === 'GET' && req.url?.startsWith('/v1/projects')) return send(200, { object: 'list', data: [], has_more: false });
      return send(404, { error: { type: 'invalid_request_error', code: 'not_found', message: 'no route' } });
    });
    fake = new FakeDaemon(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return fake;
  }
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The status with these hosts; without any (undefined), as a daemon older than `sandbox.hosts` answers it. */
const withHosts = (hosts: SandboxHostStatus[] | undefined): Status => {
  const { hosts: _none, ...sandbox } = status().sandbox;
  return { ...status(), sandbox: { ...sandbox, ...(hosts === undefined ? {} : { hosts }) } as Status['sandbox'] };
};

let daemon: FakeDaemon;
const home = tempDir('errand-hosts-cli-');
const cli = (...args: string[]) => runCli(['--home', home.path, ...args], { env: { ERRAND_API_URL: daemon.url, ERRAND_API_KEY: KEY } });

beforeAll(async () => {
  daemon = await FakeDaemon.start();
});
afterAll(async () => {
  await daemon?.close();
  home.remove();
});

describe('errand sandbox hosts', () => {
  it('lists every host with its state, load against capacity, pool, runtime, labels, firewall and address', async () => {
    daemon.answer = withHosts([host('local', { url: 'unix:///var/run/docker.sock', labels: ['fast'] }), host('gpu-2', { runtime: 'runsc', labels: ['browser-heavy', 'gvisor'], pool: { size: 4, ready: 1 } })]);
    const res = await cli('sandbox', 'hosts');
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const lines = res.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^HOST\s+STATE\s+RUNS\s+MEMORY MB\s+POOL\s+RUNTIME\s+LABELS\s+FIREWALL\s+URL$/);
    expect(lines[1]).toMatch(/^local\s+up\s+3\/8\s+6144\/16384\s+2\/2\s+runc\s+fast\s+in place\s+unix:\/\/\/var\/run\/docker\.sock$/);
    expect(lines[2]).toMatch(/^gpu-2\s+up\s+3\/8\s+6144\/16384\s+1\/4\s+runsc\s+browser-heavy,gvisor\s+in place\s+tcp:\/\/gpu-2\.example:2376$/);
  });

  it('warns, on stderr, about a host that is down with why, one without its firewall, and one the operator runs without it', async () => {
    daemon.answer = withHosts([
      host('local'),
      host('gone', { state: 'down', problem: REFUSED_KEY }),
      host('bare', { firewall: { required: true, installed: false, detail: 'on bare: missing the jump from INPUT to ERRAND-SANDBOX-IN' } }),
      host('lab', { firewall: { required: false, installed: null, detail: null } }),
    ]);
    const res = await cli('sandbox', 'hosts');
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/\nbare\s+up\s.*\sMISSING\s/);
    expect(res.stdout).toMatch(/\nlab\s+up\s.*\soff\s/);
    expect(res.stderr.trimEnd().split('\n')).toEqual([
      `warning: gone: down, so it gets no runs until a check finds it usable: ${REFUSED_KEY}`,
      'warning: bare: its sandbox firewall is missing, so it gets no runs until it is in place (docs/scale-out.md) or its firewall is set "off" (firewall: on bare: missing the jump from INPUT to ERRAND-SANDBOX-IN)',
      'warning: lab: runs sandboxes without the sandbox firewall (its firewall is "off")',
    ]);
  });

  it('prints the hosts as GET /v1/status has them with --json, and nothing else', async () => {
    const hosts = [host('local'), host('gpu-2', { state: 'down', problem: 'no answer within 5000 ms' })];
    daemon.answer = withHosts(hosts);
    const res = await cli('sandbox', 'hosts', '--json');
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('');
    expect(res.json()).toEqual({ object: 'list', data: hosts });
  });

  it('says so when the daemon lists no hosts (the local driver), and fails against a daemon that predates them', async () => {
    daemon.answer = { ...withHosts([]), sandbox: { ...withHosts([]).sandbox, driver: 'local' } };
    const empty = await cli('sandbox', 'hosts');
    expect(empty.code).toBe(0);
    expect(empty.stderr).toBe('no sandbox hosts: the daemon runs sandboxes with the local driver\n');
    daemon.answer = withHosts(undefined);
    const old = await cli('sandbox', 'hosts');
    expect(old.code).toBe(1);
    expect(old.stderr).toContain('does not list sandbox hosts (it predates sandbox.hosts)');
  });

  it('says in its help how hosts are added and removed: sandbox.hosts in config.json or ERRAND_SANDBOX_HOSTS', async () => {
    const res = await runCli(['sandbox', 'hosts', '--help']);
    expect(res.stdout).toContain('$ errand sandbox hosts --json');
    expect(res.stdout).toMatch(/sandbox\.hosts, an object keyed by host name/);
    expect(res.stdout).toContain('ERRAND_SANDBOX_HOSTS');
  });
});

describe("errand doctor's sandbox hosts", () => {
  it("reports every host's state, runtime and firewall, failing one that gets no runs for want of its firewall", async () => {
    daemon.answer = withHosts([host('local'), host('gpu-2', { runtime: 'runsc', firewall: { required: true, installed: false, detail: 'on gpu-2: gpu-2 has no DOCKER-USER chain in iptables' } }), host('gone', { state: 'down', problem: REFUSED_KEY })]);
    const res = await cli('doctor', '--json');
    expect(res.code).toBe(1);
    const checks = (res.json().checks as { check: string; level: string; detail: string }[]).filter((c) => c.check.startsWith('sandbox'));
    expect(checks.map((c) => [c.check, c.level])).toEqual([
      ['sandbox', 'ok'],
      ['sandbox host local', 'ok'],
      ['sandbox host gpu-2', 'fail'],
      ['sandbox host gone', 'warn'],
    ]);
    expect(checks[1]!.detail).toBe('up at tcp://local.example:2376, runtime runc, 3 of 8 runs, pool 2 of 2 ready, firewall in place (on local: 14 rules in ERRAND-SANDBOX-FWD and 4 in ERRAND-SANDBOX-IN)');
    expect(checks[2]!.detail).toMatch(/^its sandbox firewall is missing, .*; up at tcp:\/\/gpu-2\.example:2376, runtime runsc, .* firewall MISSING \(on gpu-2: gpu-2 has no DOCKER-USER chain in iptables\)$/);
    expect(checks[3]!.detail).toContain(`down, so it gets no runs until a check finds it usable: ${REFUSED_KEY}; down at tcp://gone.example:2376`);
  });
});
