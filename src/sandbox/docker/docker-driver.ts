import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type Docker from 'dockerode';
import type { Logger } from 'pino';
import type { SandboxCreateOptions, SandboxDriver } from '../driver.js';
import { SandboxError } from '../sandbox-error.js';
import { SupervisorClient, waitForHealthy } from '../supervisor-client.js';
import { isValidEnvName, sandboxContainerSpec, SUPERVISOR_PORT, type ContainerLimits } from './container-spec.js';
import { DockerSandbox } from './docker-sandbox.js';
import { imageExists, isNotFound } from './image-exists.js';
import { DAEMON_LABEL, HOME_LABEL, homeLabelValue, HOST_LABEL, PID_LABEL, POOL_LABEL, RUN_LABEL, SANDBOX_LABEL } from './labels.js';
import { installSandboxFirewall } from './sandbox-firewall.js';
import { ensureSandboxNetwork, type SandboxNetwork } from './sandbox-network.js';
import { WarmPool } from './warm-pool.js';

export interface DockerDriverOptions {
  docker: Docker;
  image: string;
  /** The data directory; containers are labelled with (a hash of) it so that orphans are found per home. */
  home: string;
  logger: Logger;
  limits: ContainerLimits;
  warmPoolSize: number;
  /** This daemon instance; a fresh random id by default. */
  instanceId?: string;
  /** How long a new container may take to answer its first health check. */
  startTimeoutMs?: number;
  /** Nameservers to keep reachable on port 53 (defaults to /etc/resolv.conf's). */
  nameservers?: readonly string[];
}

const LOG_TAIL_LINES = 20;

/**
 * One fresh hardened container per run (see `container-spec.ts`), on a bridge network whose traffic to the host and
 * to private and link-local ranges is dropped by the driver's iptables rules. Runs without injected environment
 * take a container from a warm pool; the environment of a started container cannot change, so runs with one get a
 * container started for them.
 */
export class DockerDriver implements SandboxDriver {
  readonly name = 'docker';
  readonly instanceId: string;
  private readonly live = new Set<DockerSandbox>();
  private readonly pool: WarmPool;
  private readonly homeLabel: string;
  private closing: Promise<void> | undefined;

  private constructor(
    private readonly options: DockerDriverOptions,
    readonly network: SandboxNetwork,
  ) {
    this.instanceId = options.instanceId ?? randomBytes(8).toString('hex');
    this.homeLabel = homeLabelValue(options.home);
    this.pool = new WarmPool({
      size: options.warmPoolSize,
      start: (signal) => this.startContainer({ name: `errand-pool-${randomBytes(6).toString('hex')}`, runId: null, env: {}, signal }),
      logger: options.logger,
    });
  }

  /**
   * Checks the engine and the image, creates the sandbox network, installs the firewall rules and starts filling the
   * warm pool. Throws a `SandboxError` when any of it is impossible: sandboxes never run unisolated.
   */
  static async start(options: DockerDriverOptions): Promise<DockerDriver> {
    try {
      await options.docker.ping();
    } catch (error) {
      throw new SandboxError(`no Docker engine is reachable: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!(await imageExists(options.docker, options.image))) {
      throw new SandboxError(`the sandbox image ${options.image} is missing; build it with \`npx errand sandbox build --offline\` (or without --offline where a registry is reachable)`);
    }
    const network = await ensureSandboxNetwork(options.docker);
    await installSandboxFirewall({ bridge: network.bridge, ...(options.nameservers ? { nameservers: options.nameservers } : {}) });
    const driver = new DockerDriver(options, network);
    driver.pool.fill();
    return driver;
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
        return pooled;
      }
    }
    return this.startContainer({
      name: `errand-${options.runId.replace(/[^A-Za-z0-9_.-]/g, '_')}-${randomBytes(4).toString('hex')}`,
      runId: options.runId,
      env: options.env,
      signal: options.signal,
    });
  }

  /**
   * Removes sandbox containers whose daemon is gone: those of another instance on the same home (two daemons never
   * share a home), and those of any Errand process on this host that no longer runs (test daemons on temporary
   * homes, a killed CLI). This instance's own containers, live, pooled or still starting, are never orphans.
   */
  async removeOrphans(): Promise<number> {
    const containers = await this.options.docker.listContainers({ all: true, filters: { label: [`${SANDBOX_LABEL}=1`] } });
    const orphans = containers.filter((container) => {
      const labels = container.Labels;
      if (labels[DAEMON_LABEL] === this.instanceId) return false;
      if (labels[HOME_LABEL] === this.homeLabel) return true;
      return labels[HOST_LABEL] === hostname() && !isProcessAlive(Number(labels[PID_LABEL]));
    });
    await Promise.all(orphans.map((container) => this.removeContainer(container.Id)));
    if (orphans.length > 0) this.options.logger.info({ count: orphans.length }, 'removed orphaned sandbox containers');
    return orphans.length;
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.pool.close();
      await Promise.all([...this.live].map((sandbox) => sandbox.destroy()));
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
    const token = randomBytes(32).toString('base64url');
    const labels: Record<string, string> = {
      [SANDBOX_LABEL]: '1',
      [DAEMON_LABEL]: this.instanceId,
      [HOME_LABEL]: this.homeLabel,
      [HOST_LABEL]: hostname(),
      [PID_LABEL]: String(process.pid),
      ...(options.runId === null ? { [POOL_LABEL]: '1' } : { [RUN_LABEL]: options.runId }),
    };
    const spec = sandboxContainerSpec({
      name: options.name,
      image: this.options.image,
      network: this.network.name,
      labels,
      env: options.env,
      token,
      limits: this.options.limits,
    });
    let container: Docker.Container;
    try {
      container = await docker.createContainer(spec);
    } catch (error) {
      throw new SandboxError(`creating the sandbox container failed: ${messageOf(error)}`, { code: 'start_failed', cause: error });
    }
    const sandboxLogger = logger.child({ sandbox: options.name, ...(options.runId === null ? {} : { runId: options.runId }) });
    try {
      await container.start();
      options.signal.throwIfAborted();
      const inspected = await container.inspect();
      const address = inspected.NetworkSettings.Networks[this.network.name]?.IPAddress;
      if (address === undefined || address === '') throw new Error(`container has no address on ${this.network.name}`);
      const client = new SupervisorClient({ baseUrl: `http://${address}:${SUPERVISOR_PORT}`, token });
      await waitForHealthy(client, { timeoutMs: this.options.startTimeoutMs ?? 30_000, signal: options.signal, intervalMs: 25 });
      const sandbox = new DockerSandbox(options.name, container.id, address, docker, client, sandboxLogger, (gone) => this.live.delete(gone));
      this.live.add(sandbox);
      if (this.closing !== undefined) {
        await sandbox.destroy();
        throw new SandboxError('the docker sandbox driver is closed', { code: 'start_failed' });
      }
      sandboxLogger.debug({ address }, 'docker sandbox started');
      return sandbox;
    } catch (error) {
      const logs = options.signal.aborted ? '' : await this.logTail(container);
      await this.removeContainer(container.id);
      if (options.signal.aborted) throw options.signal.reason;
      if (error instanceof SandboxError && error.code !== 'start_failed') throw error;
      throw new SandboxError(
        `the sandbox container did not start: ${messageOf(error)}${logs === '' ? '' : `; its output ended with:\n${logs}`}`,
        { code: 'start_failed', cause: error },
      );
    }
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

  private async removeContainer(id: string): Promise<void> {
    try {
      await this.options.docker.getContainer(id).remove({ force: true, v: true });
    } catch (error) {
      if (!isNotFound(error) && (error as { statusCode?: unknown }).statusCode !== 409) {
        this.options.logger.warn({ err: error, container: id }, 'removing sandbox container failed');
      }
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

function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
