import { spawn, type ChildProcess } from 'node:child_process';
import type { Logger } from 'pino';
import { readConnectedNetworks } from './host-routes.js';
import { installSandboxFirewall } from './sandbox-firewall.js';

export interface FirewallKeeperOptions {
  bridge: string;
  nameservers?: readonly string[];
  logger: Logger;
}

/** One route change prints several lines (the route, its local and broadcast entries); they are read as one. */
const SETTLE_MS = 200;
const RESTART_MS = 5_000;

/**
 * The sandbox firewall, kept current: installed at start with the host's connected networks, and installed again
 * whenever they change, which `ip monitor route` reports as it happens. Sandboxes started meanwhile are covered at
 * once, since they all share the one chain.
 */
export class FirewallKeeper {
  private monitor: ChildProcess | undefined;
  private timer: NodeJS.Timeout | undefined;
  private updating: Promise<void> = Promise.resolve();
  private closed = false;

  private constructor(
    private readonly options: FirewallKeeperOptions,
    private networks: readonly string[],
  ) {}

  /** Installs the firewall; throws a `SandboxError` when it cannot, since sandboxes must not run unisolated. */
  static async start(options: FirewallKeeperOptions): Promise<FirewallKeeper> {
    const networks = await readConnectedNetworks();
    await installSandboxFirewall({ ...firewallOptions(options), connectedNetworks: networks });
    const keeper = new FirewallKeeper(options, networks);
    keeper.watch();
    return keeper;
  }

  /** The connected networks the installed rules drop. */
  get connectedNetworks(): readonly string[] {
    return this.networks;
  }

  /** Stops watching; the rules stay, for the next daemon and any other on this host. */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.monitor?.kill();
  }

  private watch(): void {
    // A daemon that dies without closing leaves this monitor behind until the next route change, when its write
    // finds no reader and ends it.
    const monitor = spawn('ip', ['-4', 'monitor', 'route'], { stdio: ['ignore', 'pipe', 'ignore'] });
    this.monitor = monitor;
    monitor.stdout.on('data', () => this.schedule());
    let ended = false;
    const end = (reason: unknown): void => {
      if (ended || this.closed) return;
      ended = true;
      this.options.logger.warn({ reason: String(reason) }, 'watching the host’s routes stopped; watching again shortly');
      this.timer = setTimeout(() => {
        this.watch();
        this.update();
      }, RESTART_MS);
    };
    monitor.on('error', end).on('exit', (code, signal) => end(signal ?? `exit code ${code}`));
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.update(), SETTLE_MS);
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

function firewallOptions(options: FirewallKeeperOptions): { bridge: string; nameservers?: readonly string[] } {
  return { bridge: options.bridge, ...(options.nameservers === undefined ? {} : { nameservers: options.nameservers }) };
}
