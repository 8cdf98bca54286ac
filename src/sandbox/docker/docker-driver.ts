import { randomBytes } from 'node:crypto';
import type Docker from 'dockerode';
import type { Logger } from 'pino';
import { installationId } from '../../runtime/installation-id.js';
import { currentProcessIdentity } from '../../runtime/process-identity.js';
import type { SandboxCreateOptions, SandboxDriver, SandboxReport } from '../driver.js';
import type { SupervisorHandover } from '../protocol.js';
import { sandboxRuntime, type SandboxRuntime } from './sandbox-runtime.js';
import { SandboxError } from '../sandbox-error.js';
import { SupervisorClient, waitForHealthy } from '../supervisor-client.js';
import { isValidEnvName, sandboxContainerSpec, SUPERVISOR_PORT, type ContainerLimits } from './container-spec.js';
import { DockerSandbox } from './docker-sandbox.js';
import { FirewallKeeper } from './firewall-keeper.js';
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
  /** Makes each supervisor's bearer token; random by default (a test names its own, to search the sandbox for it). */
  supervisorToken?: () => string;
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
  private readonly pool: WarmPool;
  /** Labels of every container this driver starts: whose it is, and which process started it. */
  private readonly ownerLabels: Record<string, string>;
  private closing: Promise<void> | undefined;

  private constructor(
    private readonly options: DockerDriverOptions,
    private readonly installationId: string,
    readonly network: SandboxNetwork,
    readonly firewall: FirewallKeeper,
    private readonly runtime: SandboxRuntime,
  ) {
    this.instanceId = options.instanceId ?? randomBytes(8).toString('hex');
    this.ownerLabels = {
      [SANDBOX_LABEL]: '1',
      [INSTALLATION_LABEL]: this.installationId,
      [DAEMON_LABEL]: this.instanceId,
      ...processLabels(currentProcessIdentity()),
    };
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
    const firewall = await FirewallKeeper.start({
      bridge: network.bridge,
      logger: options.logger,
      ...(options.nameservers ? { nameservers: options.nameservers } : {}),
    });
    const driver = new DockerDriver(options, installation, network, firewall, runtime);
    driver.pool.fill();
    return driver;
  }

  async report(): Promise<SandboxReport> {
    return {
      driver: 'docker',
      isolated: true,
      image: this.options.image,
      runtime: this.runtime.name,
      warmPool: { size: this.options.warmPoolSize, ready: this.pool.readyCount },
      firewall: await checkSandboxFirewall(this.network.bridge),
    };
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
   * Removes the sandbox containers on the engine that are provably nobody's (see `orphans.ts`), logging each by
   * name, and leaves every other installation's containers alone.
   */
  removeOrphans(): Promise<number> {
    return sweepOrphans(this.options.docker, { instanceId: this.instanceId, installationId: this.installationId }, this.options.logger);
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.firewall.close();
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
    const token = this.options.supervisorToken?.() ?? randomBytes(32).toString('base64url');
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
    });
    let container: Docker.Container;
    try {
      container = await docker.createContainer(spec);
    } catch (error) {
      throw new SandboxError(`creating the sandbox container failed: ${messageOf(error)}`, { code: 'start_failed', cause: error });
    }
    const sandboxLogger = logger.child({ sandbox: options.name, ...(options.runId === null ? {} : { runId: options.runId }) });
    try {
      await startWithHandover(container, { token, env: options.env });
      options.signal.throwIfAborted();
      const inspected = await container.inspect();
      const address = inspected.NetworkSettings.Networks[this.network.name]?.IPAddress;
      if (address === undefined || address === '') throw new Error(`container has no address on ${this.network.name}`);
      // A pin left on this address by a proxied container whose daemon died would fence this one off.
      await this.firewall.unpin(address);
      const client = new SupervisorClient({ baseUrl: `http://${address}:${SUPERVISOR_PORT}`, token });
      await waitForHealthy(client, { timeoutMs: this.options.startTimeoutMs ?? 30_000, signal: options.signal, intervalMs: 25 });
      const sandbox = new DockerSandbox(options.name, container.id, address, docker, client, sandboxLogger, (gone) => this.live.delete(gone), this.firewall);
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

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
