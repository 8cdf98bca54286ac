import { readFileSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import ssh2 from 'ssh2';
import { ConfigError } from '../../errors.js';
import { SshConnection } from './ssh-connection.js';
import { SshHostKeyCheck } from './ssh-host-key-check.js';

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
  /** An ssh:// host's client key (null: the ssh-agent) and the known_hosts file its host key must be in. */
  ssh: { key: string | null; knownHosts: string } | null;
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

/** The members a host of `sandbox.hosts` may have (docs/configuration.md lists each). */
export const SANDBOX_HOST_MEMBERS = ['url', 'tls', 'ssh', 'capacity', 'labels', 'runtime', 'firewall'] as const;

const HOST_NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/;
const LABEL = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,62}$/;
const DEFAULT_RUNS = 4;
/** How long an SSH connection may take to be ready (handshake and sign-in), as a usual ssh ConnectTimeout. */
const SSH_READY_TIMEOUT_MS = 10_000;

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
    for (const member of Object.keys(entry)) if (!(SANDBOX_HOST_MEMBERS as readonly string[]).includes(member)) fail(`unknown member ${JSON.stringify(member)}`);
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
    // A password would sit in the configuration and never be used: the daemon signs in with a key.
    if (kind === 'ssh' && url.password !== '') fail('an ssh:// url carries no password: the daemon signs in with ssh.key or the ssh-agent');

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

    let ssh: SandboxHostSpec['ssh'] = null;
    if (entry.ssh !== undefined) {
      if (kind !== 'ssh') fail('ssh is for ssh:// hosts');
      const s = entry.ssh as Record<string, unknown>;
      if (typeof s !== 'object' || s === null || Array.isArray(s)) fail('ssh is {key, known_hosts}, each a file path');
      for (const member of Object.keys(s)) if (member !== 'key' && member !== 'known_hosts') fail(`ssh has no member ${JSON.stringify(member)} (it is {key, known_hosts})`);
      for (const member of ['key', 'known_hosts']) if (s[member] !== undefined && (typeof s[member] !== 'string' || s[member] === '')) fail(`ssh.${member} is a file path`);
    }
    if (kind === 'ssh') {
      const s = (entry.ssh ?? {}) as { key?: string; known_hosts?: string };
      // The daemon's user's own file by default, as ssh's.
      ssh = { key: s.key ?? null, knownHosts: s.known_hosts ?? join(homedir(), '.ssh', 'known_hosts') };
    }

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
      ssh,
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

/** A host's Docker client, and what to tell the operator when a call to it fails. */
export interface HostEngine {
  docker: Docker;
  /** Why a call failed, in the operator's words: for an SSH host key this daemon refused, which key and what to do. */
  explain(error: unknown): string;
  /** Ends what the client keeps open (an ssh:// host's SSH connection), so that nothing holds the process. */
  close(): void;
}

export interface EngineForHostOptions {
  /** The ssh-agent's socket (SSH_AUTH_SOCK), for an ssh:// host without ssh.key. */
  sshAgent: string | undefined;
}

/**
 * A Docker client for the host: its TLS or SSH key files read now, so that a missing file fails the start, not a run.
 * An ssh:// host's key is checked against its known_hosts at every new SSH connection; `close` ends the kept one.
 */
export function engineForHost(host: SandboxHostSpec, options: EngineForHostOptions): HostEngine {
  const url = new URL(host.url);
  if (host.kind === 'unix') return { docker: new Docker({ socketPath: url.pathname }), explain: errorMessage, close: () => undefined };
  const read = (path: string, what: string): Buffer => {
    try {
      return readFileSync(path);
    } catch (error) {
      throw new ConfigError('sandbox.hosts', `host ${JSON.stringify(host.name)}: its ${what} ${path} cannot be read (${(error as Error).message})`);
    }
  };
  if (host.kind === 'ssh') return sshEngine(host, url, read, options);
  const tls = host.tls!;
  const docker = new Docker({
    protocol: 'https',
    host: url.hostname,
    port: Number(url.port),
    ca: read(tls.ca, 'tls ca'),
    cert: read(tls.cert, 'tls cert'),
    key: read(tls.key, 'tls key'),
  });
  return { docker, explain: errorMessage, close: () => undefined };
}

/**
 * The Docker API over one kept SSH connection (SshConnection), each HTTP connection a channel running `docker system
 * dial-stdio` there; each new SSH connection's host key goes through the host's known_hosts check, whose refusal is
 * what a failed call reports.
 */
function sshEngine(host: SandboxHostSpec, url: URL, read: (path: string, what: string) => Buffer, options: EngineForHostOptions): HostEngine {
  const fail = (message: string): never => {
    throw new ConfigError('sandbox.hosts', `host ${JSON.stringify(host.name)}: ${message}`);
  };
  const { key: keyFile, knownHosts } = host.ssh!;
  const port = url.port === '' ? 22 : Number(url.port);
  let auth: { privateKey: Buffer } | { agent: string };
  if (keyFile !== null) {
    const privateKey = read(keyFile, 'ssh key');
    const parsed = ssh2.utils.parseKey(privateKey);
    if (parsed instanceof Error) {
      fail(`its ssh key ${keyFile} is not a private key the daemon can use (${parsed.message}); an encrypted key needs the ssh-agent instead (leave ssh.key out)`);
    } else if ((Array.isArray(parsed) ? parsed[0] : parsed)?.isPrivateKey() !== true) {
      fail(`its ssh key ${keyFile} holds no private key`);
    }
    auth = { privateKey };
  } else {
    const agent = options.sshAgent;
    if (agent === undefined || agent === '') return fail('an ssh:// host needs ssh.key, or an ssh-agent the daemon reaches through SSH_AUTH_SOCK');
    auth = { agent };
  }
  read(knownHosts, 'known_hosts');
  const check = new SshHostKeyCheck({ host: host.address!, port, knownHostsFile: knownHosts });
  const connection = new SshConnection({
    command: 'docker system dial-stdio',
    config: () => {
      // The key types known_hosts lists for the host are asked for first, as ssh asks, so that a host with several
      // keys presents a known one.
      const known = check.knownKeyTypes().flatMap(hostKeyAlgorithms) as ssh2.ServerHostKeyAlgorithm[];
      return {
        host: host.address!,
        port,
        // As ssh: the daemon's user when the URL names none.
        username: url.username === '' ? userInfo().username : decodeURIComponent(url.username),
        ...auth,
        hostVerifier: (key: Buffer) => check.verify(key),
        // A host that stops answering is found down by its check (sandbox.host_check_ms) whatever this is; this bounds
        // the calls waiting for a new connection, which a busy host may take seconds to accept.
        readyTimeout: SSH_READY_TIMEOUT_MS,
        ...(known.length === 0 ? {} : { algorithms: { serverHostKey: { remove: known, prepend: known, append: [] } } }),
      };
    },
  });
  // The host and port are the agent's business: every request goes over the SSH connection, to the host's engine.
  // docker-modem hands `agent` to node's http.request (the type omits it).
  const docker = new Docker({ protocol: 'http', host: host.address!, port, agent: connection.agent } as Docker.DockerOptions);
  return { docker, explain: (error) => check.explain(error), close: () => connection.close() };
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The signature algorithms of a key type, as ssh2 names them: an RSA key signs with SHA-2 first. */
function hostKeyAlgorithms(keyType: string): string[] {
  if (keyType === 'ssh-rsa') return ['rsa-sha2-512', 'rsa-sha2-256', 'ssh-rsa'];
  return ['ssh-ed25519', 'ecdsa-sha2-nistp256', 'ecdsa-sha2-nistp384', 'ecdsa-sha2-nistp521'].includes(keyType) ? [keyType] : [];
}
