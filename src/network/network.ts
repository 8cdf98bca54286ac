import type { Logger } from 'pino';
import type { Config } from '../config/schema.js';
import { HostNetworks } from './host-networks.js';
import { HostResolver } from './host-resolver.js';
import { allowsPrivateTargets, TargetGuard } from './target-guard.js';

export type NetworkConfig = Pick<Config, 'dns.servers' | 'dev' | 'webhooks.allow_private_targets'>;

/** How the daemon reaches out: the one resolver of every lookup, and the guard of every URL a caller names. */
export interface Network {
  dns: HostResolver;
  guard: TargetGuard;
  /** Stops following the host's routes. */
  close(): void;
}

/** The daemon's: the host's networks are followed as its routes change, until `close`. */
export async function openNetwork(config: NetworkConfig, logger: Logger): Promise<Network> {
  return assemble(config, await HostNetworks.start({ logger }));
}

/** A command's, for one check: the host's networks as they are now. */
export async function readNetwork(config: NetworkConfig): Promise<Network> {
  return assemble(config, await HostNetworks.read());
}

function assemble(config: NetworkConfig, hostNetworks: HostNetworks): Network {
  const dns = HostResolver.fromConfig(config);
  const guard = new TargetGuard({ allowPrivate: allowsPrivateTargets(config), resolver: dns, forbidden: () => hostNetworks.forbidden() });
  return { dns, guard, close: () => hostNetworks.close() };
}
