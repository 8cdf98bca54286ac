/**
 * `sandbox.hosts` (issue 26): read from config.json or ERRAND_SANDBOX_HOSTS alike into host specs with their
 * defaults, every mistake refused with the host and member named, and no credential in what reports show; an ssh://
 * host's key files read, and refused, when its client is made.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { ConfigError } from '../../src/errors.js';
import { engineForHost, parseSandboxHosts } from '../../src/sandbox/docker/sandbox-hosts.js';
import { closedPort } from '../fixtures/closed-port.js';
import { tempDir } from '../fixtures/temp-dir.js';

const HOSTS = {
  local: { url: 'unix:///var/run/docker.sock', capacity: { runs: 3 } },
  big: {
    url: 'tcp://10.0.0.12:2376',
    tls: { ca: '/etc/errand/ca.pem', cert: '/etc/errand/cert.pem', key: '/etc/errand/key.pem' },
    capacity: { runs: 8, memory_mb: 16384 },
    labels: ['gpu', 'gpu', 'eu'],
    runtime: 'runsc',
    firewall: 'off',
  },
  far: { url: 'ssh://errand@far.example:2222', ssh: { key: '/etc/errand/id_ed25519', known_hosts: '/etc/errand/known_hosts' } },
  near: { url: 'ssh://near.example' },
};

const parse = (hosts: Record<string, unknown>) => parseSandboxHosts(hosts, { memoryMbPerRun: 2048 });
const ENGINE = { sshAgent: undefined };

describe('sandbox.hosts', () => {
  let home: ReturnType<typeof tempDir> | undefined;
  afterEach(() => home?.remove());

  it('reads the hosts with their defaults, from config.json and from ERRAND_SANDBOX_HOSTS alike', () => {
    home = tempDir('errand-hosts-');
    writeFileSync(join(home.path, 'config.json'), JSON.stringify({ 'sandbox.hosts': HOSTS }));
    const fromFile = loadConfig({ home: home.path, env: {} })['sandbox.hosts'];
    const fromEnv = loadConfig({ home: home.path, env: { ERRAND_SANDBOX_HOSTS: JSON.stringify(HOSTS) } })['sandbox.hosts'];
    expect(fromEnv).toEqual(fromFile);
    const [local, big, far, near] = parse(fromFile!);
    expect(local).toMatchObject({ name: 'local', kind: 'unix', address: null, ssh: null, capacity: { runs: 3, memoryMb: 3 * 2048 }, labels: [], runtime: null, firewall: 'auto' });
    expect(big).toMatchObject({ kind: 'tcp', address: '10.0.0.12', displayUrl: 'tcp://10.0.0.12:2376', capacity: { runs: 8, memoryMb: 16384 }, labels: ['gpu', 'eu'], runtime: 'runsc', firewall: 'off' });
    // What GET /v1/status shows has no user.
    expect(far).toMatchObject({ kind: 'ssh', address: 'far.example', displayUrl: 'ssh://far.example:2222', capacity: { runs: 4, memoryMb: 4 * 2048 } });
    expect(far!.ssh).toEqual({ key: '/etc/errand/id_ed25519', knownHosts: '/etc/errand/known_hosts' });
    // The ssh-agent, and the daemon's user's known_hosts, as ssh itself.
    expect(near!.ssh).toEqual({ key: null, knownHosts: join(homedir(), '.ssh', 'known_hosts') });
  });

  it.each([
    [{ Big: { url: 'unix:///x' } }, /host "Big": a host name is/],
    [{ a: { url: 'http://h:2375' } }, /host "a": url must be unix:\/\/, tcp:\/\/ or ssh:\/\//],
    [{ a: { url: 'tcp://h:2375' } }, /host "a": a tcp:\/\/ host needs tls/],
    [{ a: { url: 'tcp://h', tls: { ca: 'a', cert: 'b', key: 'c' } } }, /host "a": a tcp:\/\/ url names its port/],
    [{ a: { url: 'unix:///x', capacity: { runs: 0 } } }, /host "a": capacity.runs/],
    [{ a: { url: 'unix:///x', labels: ['has space'] } }, /host "a": labels/],
    [{ a: { url: 'unix:///x', firewall: 'maybe' } }, /host "a": firewall is "auto", "manual", "off"/],
    [{ a: { url: 'unix:///x', cpus: 2 } }, /host "a": unknown member "cpus"/],
    [{ a: { url: 'tcp://h:2376', tls: { ca: 'a', cert: 'b', key: 'c' }, ssh: { key: 'k' } } }, /host "a": ssh is for ssh:\/\/ hosts/],
    [{ a: { url: 'ssh://h', ssh: 'k' } }, /host "a": ssh is \{key, known_hosts\}, each a file path/],
    [{ a: { url: 'ssh://h', ssh: { key: 'k', passphrase: 'p' } } }, /host "a": ssh has no member "passphrase" \(it is \{key, known_hosts\}\)/],
    [{ a: { url: 'ssh://h', ssh: { known_hosts: 7 } } }, /host "a": ssh.known_hosts is a file path/],
    [{ a: { url: 'ssh://h', ssh: { key: '' } } }, /host "a": ssh.key is a file path/],
    [{ a: { url: 'ssh://errand:secret@h' } }, /host "a": an ssh:\/\/ url carries no password/],
    [{ a: { url: 'unix:///x' }, b: { url: 'unix:///y' } }, /at most one host may be the local engine/],
    [{}, /names no host/],
  ])('refuses %j', (hosts, message) => {
    expect(() => parse(hosts)).toThrow(ConfigError);
    expect(() => parse(hosts)).toThrow(message);
  });

  it('reads a tcp host\'s TLS files when its client is made, naming the one it cannot read', () => {
    const [, big] = parse(HOSTS);
    expect(() => engineForHost(big!, ENGINE)).toThrow(/host "big": its tls ca \/etc\/errand\/ca.pem cannot be read/);
  });

  describe('an ssh:// host', () => {
    let dir: ReturnType<typeof tempDir>;
    const ssh = (ssh: Record<string, string>) => parse({ far: { url: 'ssh://root@127.0.0.1', ssh } })[0]!;
    const keygen = (name: string, passphrase: string): string => {
      execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', passphrase, '-C', '', '-f', join(dir.path, name)]);
      return join(dir.path, name);
    };
    let knownHosts: string;

    beforeAll(() => {
      dir = tempDir('errand-ssh-host-');
      knownHosts = join(dir.path, 'known_hosts');
      writeFileSync(knownHosts, '');
    });
    afterAll(() => dir.remove());

    it('makes its client from a private key file and its known_hosts, read when the client is made', () => {
      const key = keygen('plain', '');
      expect(engineForHost(ssh({ key, known_hosts: knownHosts }), ENGINE).docker).toBeDefined();
      expect(() => engineForHost(ssh({ key: join(dir.path, 'absent'), known_hosts: knownHosts }), ENGINE)).toThrow(
        /host "far": its ssh key .*\/absent cannot be read \(ENOENT/,
      );
      expect(() => engineForHost(ssh({ key, known_hosts: join(dir.path, 'no_known_hosts') }), ENGINE)).toThrow(
        /host "far": its known_hosts .*\/no_known_hosts cannot be read \(ENOENT/,
      );
    });

    it('refuses an encrypted key it has no passphrase for, and a file that holds no private key, at the start', () => {
      const encrypted = keygen('encrypted', 'a passphrase');
      expect(() => engineForHost(ssh({ key: encrypted, known_hosts: knownHosts }), ENGINE)).toThrow(ConfigError);
      expect(() => engineForHost(ssh({ key: encrypted, known_hosts: knownHosts }), ENGINE)).toThrow(
        /host "far": its ssh key .*\/encrypted is not a private key the daemon can use \(.*passphrase.*\); an encrypted key needs the ssh-agent instead/,
      );
      const key = keygen('public-only', '');
      expect(() => engineForHost(ssh({ key: `${key}.pub`, known_hosts: knownHosts }), ENGINE)).toThrow(/host "far": its ssh key .*\/public-only.pub holds no private key/);
    });

    it('fails each call to a host that is not reached with the socket error, trying a new connection every time, and none once closed', async () => {
      const port = await closedPort();
      const key = keygen('unreached', '');
      const host = parse({ far: { url: `ssh://root@127.0.0.1:${port}`, ssh: { key, known_hosts: knownHosts } } })[0]!;
      const engine = engineForHost(host, ENGINE);
      const errors: unknown[] = [];
      for (let call = 0; call < 2; call++) {
        const error = await engine.docker.ping().then(() => null, (e: unknown) => e);
        expect(engine.explain(error)).toContain(`ECONNREFUSED 127.0.0.1:${port}`);
        errors.push(error);
      }
      // Each the failure of its own attempt, not the first one's kept.
      expect(errors[1]).not.toBe(errors[0]);
      engine.close();
      await expect(engine.docker.ping()).rejects.toThrow('the SSH connection to the host is closed');
    });

    it('signs in through the ssh-agent without a key, and refuses to start with neither', () => {
      expect(engineForHost(ssh({ known_hosts: knownHosts }), { ...ENGINE, sshAgent: '/run/agent.sock' }).docker).toBeDefined();
      expect(() => engineForHost(ssh({ known_hosts: knownHosts }), ENGINE)).toThrow(/host "far": an ssh:\/\/ host needs ssh.key, or an ssh-agent the daemon reaches through SSH_AUTH_SOCK/);
    });
  });
});
