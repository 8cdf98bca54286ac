import { randomBytes } from 'node:crypto';
import type Docker from 'dockerode';
import type { Logger } from 'pino';
import { installationId } from '../../runtime/installation-id.js';
import { currentProcessIdentity } from '../../runtime/process-identity.js';
import { LOCAL_HOST, type FirewallReport, type SandboxCreateOptions, type SandboxDriver, type SandboxHostReport, type SandboxReport } from '../driver.js';
import type { SupervisorHandover, SupervisorTls } from '../protocol.js';
import { sandboxRuntime, type SandboxRuntime } from './sandbox-runtime.js';
import { SandboxError } from '../sandbox-error.js';
import { SupervisorClient, waitForHealthy } from '../supervisor-client.js';
import { newSupervisorTls } from '../supervisor-channel.js';
import { isValidEnvName, sandboxContainerSpec, SUPERVISOR_PORT, type ContainerLimits } from './container-spec.js';
import { DockerSandbox } from './docker-sandbox.js';
import { FirewallKeeper } from './firewall-keeper.js';
import {
  checkHostFirewall,
  FIREWALL_HELPER_LABEL,
  hostFirewallPins,
  hostFirewallProbe,
  installHostFirewall,
  removeHostFirewallHelper,
  type HostFirewallOptions,
  type HostFirewallPins,
} from './host-firewall.js';
import type { HostFirewallMode } from './sandbox-hosts.js';
import { imageExists } from './image-exists.js';
import { checkSandboxFirewall } from './firewall-check.js';
import { DAEMON_LABEL, INSTALLATION_LABEL, POOL_LABEL, processLabels, RUN_LABEL, SANDBOX_LABEL } from './labels.js';
import { removeContainer, sweepOrphans } from './orphan-sweep.js';
import { ensureSandboxNetwork, type SandboxNetwork } from './sandbox-network.js';
import { WarmPool } from './warm-pool.js';

export interface DockerDriverOptions {
  docker: Docker;
  image: string;
  /** The data directory; containers are labelled with its installation id, so that its orphans can be told apart. */
  home: string;
  logger: Logger;
  limits: ContainerLimits;
  warmPoolSize: number;
  /** Whether pooled containers launch their browser before a run takes them; true by default. */
  warmPoolBrowser?: boolean;
  /** The OCI runtime registered with the engine to run sandboxes under (runsc for gVisor); null or absent: the engine's default. */
  runtime?: string | null;
  /** This daemon instance; a fresh random id by default. */
  instanceId?: string;
  /** How long a new container may take to answer its first health check. */
  startTimeoutMs?: number;
  /** Nameservers to keep reachable on port 53 (defaults to /etc/resolv.conf's). */
  nameservers?: readonly string[];
  /**
   * Makes each supervisor's bearer token and TLS key; random by default (a test names its own, to search the sandbox
   * for them or to call the supervisor itself).
   */
  supervisorSecrets?: () => { token: string; tls: SupervisorTls | null };
  /** The engine as reports name it (issue 26); the local engine by default. */
  host?: DockerHostIdentity;
  /**
   * A remote engine's address (issue 26): its sandboxes publish the supervisor's port there, since its sandbox
   * network is not routed to this daemon, and the daemon's own firewall is not theirs. Null: the local engine.
   */
  remoteAddress?: string | null;
}

/** What reports say of the engine a driver runs sandboxes on. */
export interface DockerHostIdentity {
  name: string;
  url: string;
  capacity: { runs: number; memoryMb: number };
  labels: readonly string[];
  /** How a remote engine's host firewall is put in place; the local engine's is the daemon's own keeper. */
  firewall: HostFirewallMode;
}

/** A remote host whose sandbox firewall is not in place: it takes no run until it is. */
export class HostFirewallMissing extends SandboxError {
  constructor(readonly report: FirewallReport) {
    super(`the sandbox firewall is not in place ${report.detail}`);
  }
}

const LOG_TAIL_LINES = 20;

/**
 * One fresh hardened container per run (see `container-spec.ts`), on a bridge network whose traffic to the host, to
 * the host's connected networks and to special-purpose ranges is dropped by the driver's iptables rules. Runs
 * without injected environment take a container from a warm pool; a supervisor gets its environment once, when it
 * starts, so runs with one get a container started for them.
 */
export class DockerDriver implements SandboxDriver {
  readonly name = 'docker';
  readonly instanceId: string;
  private readonly live = new Set<DockerSandbox>();
  /** The sandboxes handed to runs and not yet destroyed: the host's load. */
  private readonly running = new Set<DockerSandbox>();
  private readonly pool: WarmPool;
  /** Labels of every container this driver starts: whose it is, and which process started it. */
  private readonly ownerLabels: Record<string, string>;
  private closing: Promise<void> | undefined;
  private hostFirewallReport: FirewallReport | null = null;
  /** Where a remote host's sandboxes are fenced to their run's proxy: its firewall, through the helper; null when opted out. */
  private readonly hostPins: HostFirewallPins | null;
  /** The quick look at a remote host's rules (`verifyHostFirewall`); null for the local engine or when opted out. */
  private readonly hostProbe: (() => Promise<FirewallReport>) | null;

  private constructor(
    private readonly options: DockerDriverOptions,
    private readonly installationId: string,
    readonly network: SandboxNetwork,
    /** Null on a remote engine, whose firewall is not this daemon's to keep. */
    private readonly keeper: FirewallKeeper | null,
    private readonly runtime: SandboxRuntime,
  ) {
    this.instanceId = options.instanceId ?? randomBytes(8).toString('hex');
    this.ownerLabels = {
      [SANDBOX_LABEL]: '1',
      [INSTALLATION_LABEL]: this.installationId,
      [DAEMON_LABEL]: this.instanceId,
      ...processLabels(currentProcessIdentity()),
    };
    const fenced = isRemote(options) && options.host?.firewall !== 'off';
    this.hostPins = fenced ? hostFirewallPins(options.docker, this.hostFirewallOptions(), options.logger) : null;
    this.hostProbe = fenced ? hostFirewallProbe(options.docker, this.hostFirewallOptions()) : null;
    this.pool = new WarmPool({
      size: options.warmPoolSize,
      start: (signal) => this.startPooled(signal),
      logger: options.logger,
    });
  }

  /**
   * Checks the engine and the image, creates the sandbox network, installs the firewall rules (kept current as the
   * host's routes change) and starts filling the warm pool. Throws a `SandboxError` when any of it is impossible:
   * sandboxes never run unisolated.
   */
  static async start(options: DockerDriverOptions): Promise<DockerDriver> {
    try {
      await options.docker.ping();
    } catch (error) {
      throw new SandboxError(`no Docker engine is reachable: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!(await imageExists(options.docker, options.image))) {
      throw new SandboxError(`the sandbox image ${options.image} is missing; build it with \`errand sandbox build --offline\` (or without --offline where a registry is reachable)`);
    }
    const runtime = await sandboxRuntime(options.docker, options.runtime ?? null);
    const installation = installationId(options.home);
    const network = await ensureSandboxNetwork(options.docker);
    const firewall = isRemote(options)
      ? null
      : await FirewallKeeper.start({
          bridge: network.bridge,
          logger: options.logger,
          ...(options.nameservers ? { nameservers: options.nameservers } : {}),
        });
    const driver = new DockerDriver(options, installation, network, firewall, runtime);
    // Before the first container: a remote host's sandboxes never run without its firewall (unless opted out).
    await driver.ensureHostFirewall();
    driver.pool.fill();
    return driver;
  }

  async report(): Promise<SandboxReport> {
    const firewall = isRemote(this.options) ? null : await checkSandboxFirewall(this.network.bridge);
    return {
      driver: 'docker',
      isolated: true,
      image: this.options.image,
      runtime: this.runtime.name,
      warmPool: { size: this.options.warmPoolSize, ready: this.pool.readyCount },
      firewall,
      hosts: [this.hostReport('up', firewall)],
    };
  }

  /** The engine as `GET /v1/status` lists it; `firewall` is the local engine's rules as checked (null: not checked). */
  hostReport(state: 'up' | 'down', firewall: FirewallReport | null): SandboxHostReport {
    const host = this.options.host ?? localHost(this.options);
    const memoryMb = this.running.size * this.options.limits.memoryMb;
    return {
      name: host.name,
      url: host.url,
      state,
      problem: null,
      capacity: { runs: host.capacity.runs, memory_mb: host.capacity.memoryMb },
      load: { runs: this.running.size, memory_mb: memoryMb },
      pool: { size: this.options.warmPoolSize, ready: this.pool.readyCount },
      runtime: this.runtime.name,
      labels: [...host.labels],
      firewall: {
        required: host.firewall !== 'off',
        installed: firewall === null ? null : firewall.installed,
        detail: firewall === null ? (host.firewall === 'off' ? 'not used: the host is opted out (firewall: "off")' : 'not checked') : firewall.detail,
      },
    };
  }

  warmCountsByHost(): ReadonlyMap<string, number> {
    return new Map([[(this.options.host ?? localHost(this.options)).name, this.pool.readyCount]]);
  }

  /** One engine without `sandbox.hosts`: no labels to ask for. */
  hasLabel(label: string): boolean {
    return this.options.host?.labels.includes(label) ?? false;
  }

  /** The sandboxes on this engine that are not this driver's now (a lost host's, once it answers again); returns how many it removed. */
  async removeStrays(): Promise<number> {
    const mine = new Set([...this.live].map((sandbox) => sandbox.containerId));
    const containers = await this.options.docker.listContainers({ all: true, filters: { label: [`${SANDBOX_LABEL}=1`, `${DAEMON_LABEL}=${this.instanceId}`] } });
    // The firewall helper is this daemon's too, and no sandbox.
    const strays = containers.filter((container) => !mine.has(container.Id) && container.Labels[FIREWALL_HELPER_LABEL] === undefined);
    const removed = await Promise.all(strays.map((container) => removeContainer(this.options.docker, container.Id, this.options.logger)));
    return removed.filter(Boolean).length;
  }

  /** The remote host's firewall as last installed or checked (issue 26, item 2); null for the local engine or when opted out. */
  get hostFirewall(): FirewallReport | null {
    return this.hostFirewallReport;
  }

  /**
   * Puts a remote host's sandbox firewall in place (`auto`: through the daemon's helper container there) or checks
   * it (`manual`), and throws a SandboxError saying how to fix it when it is not in place: the host takes no run
   * until it is. Nothing for the local engine (its keeper) or a host opted out (`off`).
   */
  async ensureHostFirewall(): Promise<void> {
    const mode = this.options.host?.firewall ?? 'auto';
    if (!isRemote(this.options) || mode === 'off') return;
    const helper = this.hostFirewallOptions();
    const report = mode === 'auto' ? await installHostFirewall(this.options.docker, helper) : await checkHostFirewall(this.options.docker, helper);
    this.hostFirewallReport = report;
    if (!report.installed) throw new HostFirewallMissing(report);
  }

  /**
   * Whether a remote host's rules are in place now, by one quick look through the helper (`hostFirewallProbe`): asked
   * before a run's sandbox there is handed over, and between the full checks, since rules can go at any time (a
   * reboot, a firewall reload). Never installs; null for the local engine (its keeper) or a host opted out (`off`).
   */
  /** Whether this engine's host has a firewall the daemon looks at through its helper (a remote host, not opted out). */
  get checksHostFirewall(): boolean {
    return this.hostProbe !== null;
  }

  async verifyHostFirewall(): Promise<FirewallReport | null> {
    if (this.hostProbe === null) return null;
    const report = await this.hostProbe();
    this.hostFirewallReport = report;
    return report;
  }

  private hostFirewallOptions(): HostFirewallOptions {
    return { image: this.options.image, bridge: this.network.bridge, host: this.options.host?.name ?? LOCAL_HOST, labels: this.ownerLabels };
  }

  /** The daemon's firewall rules of the local engine's sandbox network; a remote engine has none of this daemon's. */
  get firewall(): FirewallKeeper {
    if (this.keeper === null) throw new SandboxError(`the sandbox host ${this.options.host?.name ?? ''} is remote: its firewall is not this daemon's`);
    return this.keeper;
  }

  /** Pooled sandboxes ready now (for tests and status output). */
  get warmCount(): number {
    return this.pool.readyCount;
  }

  async create(options: SandboxCreateOptions): Promise<DockerSandbox> {
    options.signal.throwIfAborted();
    if (this.closing !== undefined) throw new SandboxError('the docker sandbox driver is closed', { code: 'start_failed' });
    for (const name of Object.keys(options.env)) {
      if (!isValidEnvName(name)) throw new SandboxError(`invalid environment variable name '${name}'`, { code: 'bad_request' });
    }
    if (Object.keys(options.env).length === 0) {
      const pooled = await this.pool.take();
      if (pooled !== null) {
        this.nameAfterRun(pooled, options.runId);
        this.running.add(pooled);
        return pooled;
      }
    }
    const sandbox = await this.startContainer({
      name: `errand-${options.runId.replace(/[^A-Za-z0-9_.-]/g, '_')}-${randomBytes(4).toString('hex')}`,
      runId: options.runId,
      env: options.env,
      signal: options.signal,
    });
    this.running.add(sandbox);
    return sandbox;
  }

  /**
   * Removes the sandbox containers on the engine that are provably nobody's (see `orphans.ts`), logging each by
   * name, and leaves every other installation's containers alone.
   */
  removeOrphans(): Promise<number> {
    return sweepOrphans(this.options.docker, { instanceId: this.instanceId, installationId: this.installationId }, this.options.logger);
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.keeper?.close();
      await this.pool.close();
      await Promise.all([...this.live].map((sandbox) => sandbox.destroy()));
      // The rules stay on the host; the helper that kept them is this daemon's alone.
      if (this.hostPins !== null) await removeHostFirewallHelper(this.options.docker, this.hostFirewallOptions()).catch((err: unknown) => this.options.logger.warn({ err }, 'could not remove the firewall helper'));
    })();
    return this.closing;
  }

  private async startContainer(options: {
    name: string;
    runId: string | null;
    env: Record<string, string>;
    signal: AbortSignal;
  }): Promise<DockerSandbox> {
    const { docker, logger } = this.options;
    // TLS where the supervisor's traffic crosses a network: to a remote host's published port, not on the local bridge.
    const { token, tls } = this.options.supervisorSecrets?.() ?? { token: randomBytes(32).toString('base64url'), tls: isRemote(this.options) ? newSupervisorTls() : null };
    const labels: Record<string, string> = {
      ...this.ownerLabels,
      ...(options.runId === null ? { [POOL_LABEL]: '1' } : { [RUN_LABEL]: options.runId }),
    };
    const spec = sandboxContainerSpec({
      name: options.name,
      image: this.options.image,
      network: this.network.name,
      labels,
      limits: this.options.limits,
      runtime: this.runtime.requested,
      publishSupervisor: isRemote(this.options),
    });
    let container: Docker.Container;
    try {
      container = await docker.createContainer(spec);
    } catch (error) {
      throw new SandboxError(`creating the sandbox container failed: ${messageOf(error)}`, { code: 'start_failed', cause: error });
    }
    const sandboxLogger = logger.child({ sandbox: options.name, ...(options.runId === null ? {} : { runId: options.runId }) });
    try {
      await startWithHandover(container, { token, env: options.env, tls });
      options.signal.throwIfAborted();
      const inspected = await container.inspect();
      const address = inspected.NetworkSettings.Networks[this.network.name]?.IPAddress;
      if (address === undefined || address === '') throw new Error(`container has no address on ${this.network.name}`);
      // A pin left on this address by a proxied container whose daemon died would fence this one off.
      await this.keeper?.unpin(address);
      const client = new SupervisorClient({ baseUrl: supervisorUrl(this.options, inspected, address, tls !== null), token, tls });
      await waitForHealthy(client, { timeoutMs: this.options.startTimeoutMs ?? 30_000, signal: options.signal, intervalMs: 25 });
      const gone = (sandbox: DockerSandbox): void => {
        this.live.delete(sandbox);
        this.running.delete(sandbox);
      };
      const sandbox = new DockerSandbox(options.name, container.id, address, docker, client, sandboxLogger, gone, this.keeper ?? this.hostPins ?? noFirewall(this.options));
      this.live.add(sandbox);
      if (this.closing !== undefined) {
        await sandbox.destroy();
        throw new SandboxError('the docker sandbox driver is closed', { code: 'start_failed' });
      }
      sandboxLogger.debug({ address }, 'docker sandbox started');
      return sandbox;
    } catch (error) {
      const logs = options.signal.aborted ? '' : await this.logTail(container);
      await removeContainer(docker, container.id, logger);
      if (options.signal.aborted) throw options.signal.reason;
      if (error instanceof SandboxError && error.code !== 'start_failed') throw error;
      throw new SandboxError(
        `the sandbox container did not start: ${messageOf(error)}${logs === '' ? '' : `; its output ended with:\n${logs}`}`,
        { code: 'start_failed', cause: error },
      );
    }
  }

  /**
   * A pooled container, with its browser launched and its blank page open unless `warmPoolBrowser` is false: that
   * launch is nearly all of a run's wait for its first page, and no run waits for it here. A cold container started
   * for a run does not do it, since there the run would wait for it before its first step. A browser that does not
   * start is not the container's end: the run's first browser action tries again, and reports what it finds.
   */
  private async startPooled(signal: AbortSignal): Promise<DockerSandbox> {
    const sandbox = await this.startContainer({ name: `errand-pool-${randomBytes(6).toString('hex')}`, runId: null, env: {}, signal });
    if (this.options.warmPoolBrowser === false) return sandbox;
    try {
      await sandbox.warmBrowser(signal);
    } catch (error) {
      if (signal.aborted) {
        await sandbox.destroy();
        throw signal.reason;
      }
      this.options.logger.warn({ err: error, sandbox: sandbox.id }, 'the browser of a pooled sandbox did not start; its run will start it');
    }
    return sandbox;
  }

  /** Pooled containers are named after the run they end up serving, so `docker ps` shows which run owns which. */
  private nameAfterRun(sandbox: DockerSandbox, runId: string): void {
    const name = `errand-${runId.replace(/[^A-Za-z0-9_.-]/g, '_')}-${sandbox.id.slice(-6)}`;
    this.options.docker
      .getContainer(sandbox.containerId)
      .rename({ name })
      .catch((error: unknown) => this.options.logger.debug({ err: error, sandbox: sandbox.id }, 'renaming pooled sandbox failed'));
  }

  private async logTail(container: Docker.Container): Promise<string> {
    try {
      const buffer = (await container.logs({ stdout: true, stderr: true, tail: LOG_TAIL_LINES, follow: false })) as Buffer;
      return demultiplex(buffer).trim();
    } catch {
      return '';
    }
  }
}

/** Docker multiplexes stdout and stderr of a container without a TTY into frames with an 8-byte header. */
function demultiplex(buffer: Buffer): string {
  const parts: string[] = [];
  let offset = 0;
  while (offset + 8 <= buffer.length) {
    const size = buffer.readUInt32BE(offset + 4);
    parts.push(buffer.subarray(offset + 8, offset + 8 + size).toString('utf8'));
    offset += 8 + size;
  }
  return parts.join('');
}

/**
 * Starts the container and hands its supervisor the token and the run's environment as the first line of its stdin,
 * through an attach that only holders of the Docker API can make: they are in no environment, argument or file of
 * the container.
 */
async function startWithHandover(container: Docker.Container, handover: SupervisorHandover): Promise<void> {
  const attach = { stream: true, hijack: true, stdin: true, stdout: false, stderr: false };
  const stdin = (await container.attach(attach)) as NodeJS.ReadWriteStream;
  const failed = new Promise<never>((_, reject) => stdin.once('error', reject));
  // The stream may fail after the handover too (the container is removed); that is no one's concern by then.
  stdin.on('error', () => undefined);
  await Promise.race([
    (async () => {
      await container.start();
      await new Promise<void>((resolve) => stdin.end(`${JSON.stringify(handover)}\n`, resolve));
    })(),
    failed,
  ]);
}

function isRemote(options: DockerDriverOptions): boolean {
  return (options.remoteAddress ?? null) !== null;
}

/** The one engine of an installation without `sandbox.hosts`, as reports name it. */
function localHost(options: DockerDriverOptions): DockerHostIdentity {
  return { name: LOCAL_HOST, url: process.env.DOCKER_HOST ?? 'unix:///var/run/docker.sock', capacity: { runs: 0, memoryMb: 0 }, labels: [], firewall: 'auto' };
}

/**
 * Where the daemon reaches a container's supervisor: its address on the sandbox network for the local engine, the
 * port the engine published on its host's address for a remote one.
 */
function supervisorUrl(options: DockerDriverOptions, inspected: Docker.ContainerInspectInfo, address: string, tls: boolean): string {
  const scheme = tls ? 'https' : 'http';
  const remote = options.remoteAddress ?? null;
  if (remote === null) return `${scheme}://${address}:${SUPERVISOR_PORT}`;
  const port = inspected.NetworkSettings.Ports?.[`${SUPERVISOR_PORT}/tcp`]?.[0]?.HostPort;
  if (port === undefined || port === '') throw new Error(`the engine published no port for the supervisor (${SUPERVISOR_PORT}/tcp)`);
  return `${scheme}://${remote.includes(':') ? `[${remote}]` : remote}:${port}`;
}

/**
 * A remote engine opted out of its firewall (`firewall: "off"`) has nothing to fence a proxied run off to its proxy:
 * such a run fails to start there rather than leave unfenced.
 */
function noFirewall(options: DockerDriverOptions): Pick<FirewallKeeper, 'pin' | 'unpin'> {
  const host = options.host?.name ?? 'this host';
  return {
    pin: () => Promise.reject(new SandboxError(`runs that leave through a proxy cannot be fenced to it on the remote sandbox host ${host}`, { code: 'start_failed' })),
    unpin: () => Promise.resolve(),
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
