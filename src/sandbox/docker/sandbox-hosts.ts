import { readFileSync } from 'node:fs';
import Docker from 'dockerode';
import { ConfigError } from '../../errors.js';

/** One Docker engine of `sandbox.hosts` (docs/configuration.md, "Several Docker engines"). */
export interface SandboxHostSpec {
  name: string;
  /** As configured; `displayUrl` is what reports show. */
  url: string;
  /** The URL without credentials (no user info, no query). */
  displayUrl: string;
  kind: 'unix' | 'tcp' | 'ssh';
  /** Where a remote host's published ports are reached: the URL's host name; null for the local engine. */
  address: string | null;
  tls: { ca: string; cert: string; key: string } | null;
  capacity: { runs: number; memoryMb: number };
  labels: readonly string[];
  /** The OCI runtime on this host; null: `sandbox.runtime`. */
  runtime: string | null;
  firewall: HostFirewallMode;
}

/**
 * How a host's sandbox firewall is put in place (issue 26, item 2): `auto`, the daemon installs it through its helper
 * container there and checks it; `manual`, the operator installs it (`errand sandbox firewall --print`) and the daemon
 * only checks; `off`, the operator opted the host out by name. The local engine's is always the daemon's own.
 */
export const HOST_FIREWALL_MODES = ['auto', 'manual', 'off'] as const;
export type HostFirewallMode = (typeof HOST_FIREWALL_MODES)[number];

const HOST_NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/;
const LABEL = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,62}$/;
const DEFAULT_RUNS = 4;

/**
 * `sandbox.hosts` read into host specs, every mistake a `ConfigError` naming the host and member, so that the daemon
 * refuses to start on a host it would misuse.
 */
export function parseSandboxHosts(value: Readonly<Record<string, unknown>>, defaults: { memoryMbPerRun: number }): SandboxHostSpec[] {
  const key = 'sandbox.hosts';
  const hosts = Object.entries(value).map(([name, raw]): SandboxHostSpec => {
    const fail = (message: string): never => {
      throw new ConfigError(key, `host ${JSON.stringify(name)}: ${message}`);
    };
    if (!HOST_NAME.test(name)) fail('a host name is 1-63 lower-case letters, digits, _ or -, starting with a letter or digit');
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return fail('must be an object');
    const entry = raw as Record<string, unknown>;
    const known = new Set(['url', 'tls', 'capacity', 'labels', 'runtime', 'firewall']);
    for (const member of Object.keys(entry)) if (!known.has(member)) fail(`unknown member ${JSON.stringify(member)}`);
    if (typeof entry.url !== 'string') return fail('url is required (unix://, tcp:// or ssh://)');
    let url: URL;
    try {
      url = new URL(entry.url);
    } catch {
      return fail(`url ${JSON.stringify(entry.url)} is not a URL`);
    }
    const kind = url.protocol === 'unix:' ? 'unix' : url.protocol === 'tcp:' ? 'tcp' : url.protocol === 'ssh:' ? 'ssh' : fail('url must be unix://, tcp:// or ssh://');
    if (kind !== 'unix' && url.hostname === '') fail('url names no host');
    if (kind === 'tcp' && url.port === '') fail('a tcp:// url names its port (2376 for TLS)');

    let tls: SandboxHostSpec['tls'] = null;
    if (entry.tls !== undefined) {
      if (kind !== 'tcp') fail('tls is for tcp:// hosts');
      const t = entry.tls as Record<string, unknown>;
      if (typeof t !== 'object' || t === null || typeof t.ca !== 'string' || typeof t.cert !== 'string' || typeof t.key !== 'string') {
        fail('tls is {ca, cert, key}, each a file path');
      }
      tls = { ca: t.ca as string, cert: t.cert as string, key: t.key as string };
    }
    // The Docker API is root on its host: it never goes over the network unauthenticated.
    if (kind === 'tcp' && tls === null) fail('a tcp:// host needs tls {ca, cert, key}');

    const capacity = (entry.capacity ?? {}) as Record<string, unknown>;
    if (typeof capacity !== 'object' || capacity === null || Array.isArray(capacity)) fail('capacity is {runs, memory_mb}');
    const runs = capacity.runs ?? DEFAULT_RUNS;
    if (typeof runs !== 'number' || !Number.isInteger(runs) || runs < 1 || runs > 10_000) fail('capacity.runs is a whole number from 1 to 10000');
    const memoryMb = capacity.memory_mb ?? (runs as number) * defaults.memoryMbPerRun;
    if (typeof memoryMb !== 'number' || !Number.isInteger(memoryMb) || memoryMb < 1) fail('capacity.memory_mb is a positive whole number');

    const labels = entry.labels ?? [];
    if (!Array.isArray(labels) || labels.some((l) => typeof l !== 'string' || !LABEL.test(l))) {
      fail('labels is a list of 1-63 letters, digits, _ . : or -');
    }
    const runtime = entry.runtime ?? null;
    if (runtime !== null && (typeof runtime !== 'string' || runtime === '')) fail('runtime is the name of a runtime the engine has registered');
    const firewall = entry.firewall ?? 'auto';
    if (!(HOST_FIREWALL_MODES as readonly unknown[]).includes(firewall)) fail(`firewall is ${HOST_FIREWALL_MODES.map((m) => JSON.stringify(m)).join(', ')}`);

    return {
      name,
      url: entry.url,
      displayUrl: kind === 'unix' ? `unix://${url.pathname}` : `${url.protocol}//${url.host}`,
      kind,
      address: kind === 'unix' ? null : url.hostname.replace(/^\[|\]$/g, ''),
      tls,
      capacity: { runs: runs as number, memoryMb: memoryMb as number },
      labels: [...new Set(labels as string[])],
      runtime: runtime as string | null,
      firewall: firewall as HostFirewallMode,
    };
  });
  if (hosts.length === 0) throw new ConfigError(key, 'names no host; leave it unset for the local engine alone');
  // The daemon's own firewall fences one bridge on its own host: two local entries would be one engine counted twice.
  if (hosts.filter((h) => h.kind === 'unix').length > 1) throw new ConfigError(key, 'at most one host may be the local engine (unix://)');
  return hosts;
}

/** A Docker client for the host: its TLS material read now, so that a missing file fails the start, not a run. */
export function dockerForHost(host: SandboxHostSpec): Docker {
  const url = new URL(host.url);
  if (host.kind === 'unix') return new Docker({ socketPath: url.pathname });
  if (host.kind === 'ssh') {
    return new Docker({
      protocol: 'ssh',
      host: url.hostname,
      ...(url.port === '' ? {} : { port: Number(url.port) }),
      ...(url.username === '' ? {} : { username: decodeURIComponent(url.username) }),
      sshOptions: { agent: process.env.SSH_AUTH_SOCK },
    } as Docker.DockerOptions);
  }
  const read = (path: string, what: string): Buffer => {
    try {
      return readFileSync(path);
    } catch (error) {
      throw new ConfigError('sandbox.hosts', `host ${JSON.stringify(host.name)}: its tls ${what} ${path} cannot be read (${(error as Error).message})`);
    }
  };
  const tls = host.tls!;
  return new Docker({
    protocol: 'https',
    host: url.hostname,
    port: Number(url.port),
    ca: read(tls.ca, 'ca'),
    cert: read(tls.cert, 'cert'),
    key: read(tls.key, 'key'),
  });
}
