import { isIP } from 'node:net';
import { execa } from 'execa';
import { parseCidr } from './ip-address.js';

/** A route as `ip -json route` prints it (the fields read here). */
export interface HostRoute {
  dst?: string;
  type?: string;
  gateway?: string;
  via?: { family?: string; host?: string };
  nexthops?: { gateway?: string; via?: { family?: string; host?: string } }[];
}

/**
 * Routes to shorter prefixes than these that go straight out of an interface are not networks the host sits on but
 * a way to the internet: a VPN's split default (0.0.0.0/1 and 128.0.0.0/1, or ::/1 and 8000::/1, on its tunnel
 * device), or 2000::/3 on a tunnel, for example.
 */
const SHORTEST_NETWORK_PREFIX = { 4: 8, 6: 16 } as const;

/**
 * The networks of one family the host reaches directly, as CIDRs, sorted: the destinations of its unicast routes
 * without a gateway (in every routing table), and each gateway itself (a router is a host on the local network,
 * even when reached through an on-link route). The host's own addresses are not here (`localAddresses`).
 */
export function connectedNetworks(routes: readonly HostRoute[], family: 4 | 6): string[] {
  const networks = new Set<string>();
  for (const route of routes) {
    if ((route.type ?? 'unicast') !== 'unicast') continue;
    const hops = [route, ...(route.nexthops ?? [])];
    const gateways = hops.flatMap((hop) => [hop.gateway, hop.via?.host]);
    for (const gateway of gateways) if (gateway !== undefined && isIP(gateway) === family) networks.add(`${gateway}/${family === 4 ? 32 : 128}`);
    if (gateways.some((gateway) => gateway !== undefined) || route.dst === undefined || route.dst === 'default') continue;
    const network = cidrOf(route.dst, family);
    if (network !== null && network.prefix >= SHORTEST_NETWORK_PREFIX[family]) networks.add(`${network.address}/${network.prefix}`);
  }
  return [...networks].sort();
}

/** The host's own addresses of one family (its `local` routes: 127.0.0.0/8, each interface's addresses), sorted. */
export function localAddresses(routes: readonly HostRoute[], family: 4 | 6): string[] {
  const addresses = new Set<string>();
  for (const route of routes) {
    if (route.type !== 'local' || route.dst === undefined) continue;
    const network = cidrOf(route.dst, family);
    if (network !== null) addresses.add(`${network.address}/${network.prefix}`);
  }
  return [...addresses].sort();
}

/** Every route of one family in every table, from `ip -json -4 route show table all` (or `-6`). */
export async function readHostRoutes(family: 4 | 6): Promise<HostRoute[]> {
  const output = (await execa('ip', ['-json', `-${family}`, 'route', 'show', 'table', 'all'])).stdout;
  return JSON.parse(output === '' ? '[]' : output) as HostRoute[];
}

function cidrOf(destination: string, family: 4 | 6): { address: string; prefix: number } | null {
  const parsed = parseCidr(destination);
  if (parsed === null || parsed.family !== family) return null;
  return { address: destination.split('/')[0]!, prefix: parsed.prefix };
}
