import type { Logger } from 'pino';
import { connectedNetworks, readHostRoutes } from '../../network/host-routes.js';
import { RouteMonitor } from '../../network/route-monitor.js';
import { SandboxError } from '../sandbox-error.js';
import { installSandboxFirewall, pinSandbox, unpinSandbox, type ProxyPin } from './sandbox-firewall.js';

export interface FirewallKeeperOptions {
  bridge: string;
  nameservers?: readonly string[];
  logger: Logger;
}

/**
 * The sandbox firewall, kept current: installed at start with the host's connected networks, and installed again
 * whenever they change, which `ip monitor route` reports as it happens. Sandboxes started meanwhile are covered at
 * once, since they all share the one chain.
 */
export class FirewallKeeper {
  private readonly monitor: RouteMonitor;
  private updating: Promise<void> = Promise.resolve();
  private closed = false;

  private constructor(
    private readonly options: FirewallKeeperOptions,
    private networks: readonly string[],
  ) {
    this.monitor = RouteMonitor.start({ logger: options.logger, onChange: () => this.update() });
  }

  /** Installs the firewall; throws a `SandboxError` when it cannot, since sandboxes must not run unisolated. */
  static async start(options: FirewallKeeperOptions): Promise<FirewallKeeper> {
    const networks = await readConnectedNetworks();
    await installSandboxFirewall({ ...firewallOptions(options), connectedNetworks: networks });
    return new FirewallKeeper(options, networks);
  }

  /** The connected networks the installed rules drop. */
  get connectedNetworks(): readonly string[] {
    return this.networks;
  }

  /** Lets the sandbox at `address` reach only its run's proxy (and its resolvers) from now on. */
  pin(address: string, pin: ProxyPin): Promise<void> {
    return pinSandbox(address, pin, this.options.nameservers);
  }

  /** Lifts the pin of a sandbox that is gone, so that its address serves the next one unfenced. */
  async unpin(address: string): Promise<void> {
    await unpinSandbox(address).catch((error: unknown) => this.options.logger.warn({ err: error, address }, 'removing a sandbox’s proxy pin failed'));
  }

  /** Stops watching; the rules stay, for the next daemon and any other on this host. */
  close(): void {
    this.closed = true;
    this.monitor.close();
  }

  private update(): void {
    this.updating = this.updating.then(async () => {
      if (this.closed) return;
      try {
        const networks = await readConnectedNetworks();
        if (networks.join() === this.networks.join()) return;
        await installSandboxFirewall({ ...firewallOptions(this.options), connectedNetworks: networks });
        this.networks = networks;
        this.options.logger.info({ connectedNetworks: networks }, 'sandbox firewall updated for the host’s connected networks');
      } catch (error) {
        this.options.logger.warn({ err: error }, 'updating the sandbox firewall for changed routes failed');
      }
    });
  }
}

/** The host's IPv4 connected networks (the rules are iptables', IPv4 only). */
async function readConnectedNetworks(): Promise<string[]> {
  try {
    return connectedNetworks(await readHostRoutes(4), 4);
  } catch (error) {
    throw new SandboxError(
      `docker sandboxes need \`ip\` (iproute2) to read the host's routes, so that the firewall fences off the networks ` +
        `the host is connected to: ${error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error)}`,
    );
  }
}

function firewallOptions(options: FirewallKeeperOptions): { bridge: string; nameservers?: readonly string[] } {
  return { bridge: options.bridge, ...(options.nameservers === undefined ? {} : { nameservers: options.nameservers }) };
}
