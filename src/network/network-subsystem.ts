import type { Logger } from 'pino';
import type { Subsystem } from '../subsystem.js';
import { openNetwork, type Network, type NetworkConfig } from './network.js';

/** The daemon's resolver and URL guard; it follows the host's routes (an `ip monitor` process) until it closes. */
export async function networkSubsystem(config: NetworkConfig, logger: Logger): Promise<Subsystem<Network>> {
  const network = await openNetwork(config, logger);
  return { name: 'network', services: network, close: () => network.close() };
}
