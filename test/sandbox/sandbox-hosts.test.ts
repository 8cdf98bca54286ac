/**
 * `sandbox.hosts` (issue 26): read from config.json or ERRAND_SANDBOX_HOSTS alike into host specs with their
 * defaults, every mistake refused with the host and member named, and no credential in what reports show.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { ConfigError } from '../../src/errors.js';
import { dockerForHost, parseSandboxHosts } from '../../src/sandbox/docker/sandbox-hosts.js';
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
  far: { url: 'ssh://errand:secret@far.example:2222' },
};

const parse = (hosts: Record<string, unknown>) => parseSandboxHosts(hosts, { memoryMbPerRun: 2048 });

describe('sandbox.hosts', () => {
  let home: ReturnType<typeof tempDir> | undefined;
  afterEach(() => home?.remove());

  it('reads the hosts with their defaults, from config.json and from ERRAND_SANDBOX_HOSTS alike', () => {
    home = tempDir('errand-hosts-');
    writeFileSync(join(home.path, 'config.json'), JSON.stringify({ 'sandbox.hosts': HOSTS }));
    const fromFile = loadConfig({ home: home.path, env: {} })['sandbox.hosts'];
    const fromEnv = loadConfig({ home: home.path, env: { ERRAND_SANDBOX_HOSTS: JSON.stringify(HOSTS) } })['sandbox.hosts'];
    expect(fromEnv).toEqual(fromFile);
    const [local, big, far] = parse(fromFile!);
    expect(local).toMatchObject({ name: 'local', kind: 'unix', address: null, capacity: { runs: 3, memoryMb: 3 * 2048 }, labels: [], runtime: null, firewall: 'auto' });
    expect(big).toMatchObject({ kind: 'tcp', address: '10.0.0.12', displayUrl: 'tcp://10.0.0.12:2376', capacity: { runs: 8, memoryMb: 16384 }, labels: ['gpu', 'eu'], runtime: 'runsc', firewall: 'off' });
    // What GET /v1/status shows has no user or password.
    expect(far).toMatchObject({ kind: 'ssh', address: 'far.example', displayUrl: 'ssh://far.example:2222', capacity: { runs: 4, memoryMb: 4 * 2048 } });
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
    [{ a: { url: 'unix:///x' }, b: { url: 'unix:///y' } }, /at most one host may be the local engine/],
    [{}, /names no host/],
  ])('refuses %j', (hosts, message) => {
    expect(() => parse(hosts)).toThrow(ConfigError);
    expect(() => parse(hosts)).toThrow(message);
  });

  it('reads a tcp host\'s TLS files when its client is made, naming the one it cannot read', () => {
    const [, big] = parse(HOSTS);
    expect(() => dockerForHost(big!)).toThrow(/host "big": its tls ca \/etc\/errand\/ca.pem cannot be read/);
  });
});
