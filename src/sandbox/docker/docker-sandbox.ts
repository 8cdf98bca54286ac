import { isIPv4 } from 'node:net';
import type Docker from 'dockerode';
import type { Logger } from 'pino';
import type { SandboxProxy } from '../driver.js';
import { SandboxError } from '../sandbox-error.js';
import type { SupervisorClient } from '../supervisor-client.js';
import { SupervisorSandbox } from '../supervisor-sandbox.js';
import type { FirewallKeeper } from './firewall-keeper.js';
import { isNotFound } from './image-exists.js';

/** One run's container. Destroying it kills and removes the container; nothing of it is reused. */
export class DockerSandbox extends SupervisorSandbox {
  constructor(
    /** The container's name. */
    id: string,
    readonly containerId: string,
    /** The container's address on the sandbox network, where its supervisor listens. */
    readonly address: string,
    private readonly docker: Docker,
    client: SupervisorClient,
    private readonly logger: Logger,
    private readonly onDestroyed: (sandbox: DockerSandbox) => void,
    private readonly firewall: Pick<FirewallKeeper, 'pin' | 'unpin'>,
  ) {
    super(id, client);
  }

  private pinned = false;

  /** Through its run's proxy only: without one, the container's loopback is its own and the firewall refuses the rest. */
  get reachesHost(): boolean {
    return this.pinned;
  }

  /**
   * Fences the container off to the proxy's addresses and port before the supervisor starts using it, so that
   * nothing the run starts, the browser, code or anything they spawn, leaves any other way.
   */
  override async useProxy(proxy: SandboxProxy, signal: AbortSignal): Promise<void> {
    this.assertAlive();
    const addresses = proxy.addresses.filter((address) => isIPv4(address));
    if (addresses.length === 0) {
      throw new SandboxError(`${proxy.request.label} has no IPv4 address, and docker sandboxes reach IPv4 only`, { code: 'bad_request' });
    }
    // Its forwarder would dial the container's own loopback and report the proxy down while it is up.
    if (addresses.every((address) => address.startsWith('127.'))) {
      throw new SandboxError(
        `${proxy.request.label} is on ${addresses.join(', ')}, the loopback of the daemon's host, which a docker sandbox cannot reach ` +
          '(127.0.0.1 there is the container itself): give the proxy an address the sandboxes reach (the host\'s address on the ' +
          'sandbox network or its LAN), or run the daemon with the local sandbox driver',
        { code: 'bad_request' },
      );
    }
    this.pinned = true;
    await this.firewall.pin(this.address, { addresses, port: proxy.port });
    await super.useProxy(proxy, signal);
  }

  /** Launches the browser ahead of the run's first action (see warm-pool.ts). */
  async warmBrowser(signal: AbortSignal): Promise<void> {
    this.assertAlive();
    return this.client.warmBrowser(signal);
  }

  /** Writes a file into the workspace (`path` relative to it). */
  async putFile(path: string, content: Uint8Array, signal?: AbortSignal): Promise<void> {
    this.assertAlive();
    return this.client.putFile(path, content, signal);
  }

  /** Reads a file from the workspace (`path` relative to it). */
  async getFile(path: string, signal?: AbortSignal): Promise<Buffer> {
    this.assertAlive();
    return this.client.getFile(path, signal);
  }

  /** Answers whether the supervisor still responds, within `timeoutMs`. */
  async isHealthy(timeoutMs: number): Promise<boolean> {
    if (this.destroyed) return false;
    try {
      await this.client.health(AbortSignal.timeout(timeoutMs));
      return true;
    } catch {
      return false;
    }
  }

  destroy(): Promise<void> {
    this.destroying ??= (async () => {
      try {
        // Force removal kills with SIGKILL: nothing in a sandbox needs a graceful stop, and it frees the run at once.
        await this.docker.getContainer(this.containerId).remove({ force: true, v: true });
      } catch (error) {
        if (!isNotFound(error) && !isRemovalInProgress(error)) {
          this.logger.warn({ err: error }, 'removing sandbox container failed');
        }
      }
      this.closeClient();
      if (this.pinned) await this.firewall.unpin(this.address);
      this.onDestroyed(this);
      this.logger.debug('docker sandbox destroyed');
    })();
    return this.destroying;
  }
}

function isRemovalInProgress(error: unknown): boolean {
  return (error as { statusCode?: unknown }).statusCode === 409;
}
