import { networkInterfaces } from 'node:os';
import type { Logger } from 'pino';
import { ForbiddenAddresses } from './forbidden-addresses.js';
import { connectedNetworks, localAddresses, readHostRoutes } from './host-routes.js';
import { RouteMonitor } from './route-monitor.js';

/**
 * The host's own addresses and the networks it reaches directly, which no URL a caller names may reach (issue 21,
 * item 5): read from the routes of both families in every table, the reading the sandbox firewall makes too, and
 * kept current by `ip monitor route`. Where `ip` (iproute2) cannot be run, the networks and addresses of the host's
 * interfaces stand in, read again at every check (a cheap call), with a warning: routes through other tables (a
 * VPN's) are then not known.
 */
export class HostNetworks {
  private monitor: RouteMonitor | null = null;
  private updating: Promise<void> = Promise.resolve();
  private closed = false;
  private fromInterfaces: { key: string; forbidden: ForbiddenAddresses } | null = null;

  private constructor(
    /** Null when the routes cannot be read: the interfaces stand in. */
    private routed: { networks: readonly string[]; forbidden: ForbiddenAddresses } | null,
    /** Why the routes could not be read, or null. */
    readonly unreadable: string | null,
  ) {}

  /** Reads the routes once and follows their changes until `close`; logs a warning when they cannot be read. */
  static async start(options: { logger: Logger }): Promise<HostNetworks> {
    const networks = await HostNetworks.read();
    if (networks.unreadable !== null) {
      options.logger.warn({ reason: networks.unreadable }, 'cannot read the host’s routes with `ip` (iproute2): callback and MCP URLs are checked against the networks of its interfaces only');
      return networks;
    }
    networks.monitor = RouteMonitor.start({ logger: options.logger, onChange: () => networks.update(options.logger) });
    return networks;
  }

  /** One reading, not followed (a CLI command checking one URL). */
  static async read(): Promise<HostNetworks> {
    try {
      const networks = await readRouteNetworks();
      return new HostNetworks({ networks, forbidden: new ForbiddenAddresses(networks) }, null);
    } catch (error) {
      return new HostNetworks(null, error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error));
    }
  }

  /** The addresses no connection made for a caller may reach, with the host's networks as they are now. */
  forbidden(): ForbiddenAddresses {
    if (this.routed !== null) return this.routed.forbidden;
    const networks = interfaceNetworks();
    const key = networks.join();
    if (this.fromInterfaces?.key !== key) this.fromInterfaces = { key, forbidden: new ForbiddenAddresses(networks) };
    return this.fromInterfaces.forbidden;
  }

  close(): void {
    this.closed = true;
    this.monitor?.close();
  }

  private update(logger: Logger): void {
    this.updating = this.updating.then(async () => {
      if (this.closed) return;
      try {
        const networks = await readRouteNetworks();
        if (networks.join() === this.routed?.networks.join()) return;
        this.routed = { networks, forbidden: new ForbiddenAddresses(networks) };
        logger.info({ hostNetworks: networks }, 'the host’s networks changed; callback and MCP URLs are checked against them');
      } catch (error) {
        logger.warn({ err: error }, 'reading the host’s changed routes failed; the URL guard keeps the networks it read before');
      }
    });
  }
}

/** Connected networks, gateways and own addresses of both families; IPv6 may be off (its reading then fails alone). */
async function readRouteNetworks(): Promise<string[]> {
  const v4 = await readHostRoutes(4);
  const v6 = await readHostRoutes(6).catch(() => []);
  return [...connectedNetworks(v4, 4), ...localAddresses(v4, 4), ...connectedNetworks(v6, 6), ...localAddresses(v6, 6)];
}

/** Each interface address as its network (`192.0.2.2/24`, read as 192.0.2.0/24) and as itself. */
function interfaceNetworks(): string[] {
  return Object.values(networkInterfaces())
    .flatMap((addresses) => addresses ?? [])
    .flatMap((a) => [a.cidr ?? a.address, a.address.replace(/%.*$/, '')])
    .sort();
}
