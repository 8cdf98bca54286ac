import { isIPv4 } from 'node:net';
import { execa } from 'execa';
import { SandboxError } from '../sandbox-error.js';

/** A route as `ip -json route` prints it (the fields read here). */
export interface HostRoute {
  dst?: string;
  type?: string;
  gateway?: string;
  via?: { family?: string; host?: string };
  nexthops?: { gateway?: string; via?: { family?: string; host?: string } }[];
}

/**
 * Routes to shorter prefixes than this that go straight out of an interface are not networks the host sits on but
 * a way to the internet: a VPN's split default (0.0.0.0/1 and 128.0.0.0/1 on its tunnel device), for example.
 */
const SHORTEST_NETWORK_PREFIX = 8;

/**
 * The IPv4 networks the host reaches directly, as CIDRs, sorted: the destinations of its unicast routes without a
 * gateway (in every routing table), and each gateway itself (a router is a host on the local network, even when
 * reached through an on-link route). The host's own addresses are not here: traffic to them is not forwarded.
 */
export function connectedNetworks(routes: readonly HostRoute[]): string[] {
  const networks = new Set<string>();
  for (const route of routes) {
    if ((route.type ?? 'unicast') !== 'unicast') continue;
    const hops = [route, ...(route.nexthops ?? [])];
    const gateways = hops.flatMap((hop) => [hop.gateway, hop.via?.family === 'inet' ? hop.via.host : undefined]);
    for (const gateway of gateways) if (gateway !== undefined && isIPv4(gateway)) networks.add(`${gateway}/32`);
    if (gateways.some((gateway) => gateway !== undefined) || route.dst === undefined || route.dst === 'default') continue;
    const network = cidr(route.dst);
    if (network !== null && network.prefix >= SHORTEST_NETWORK_PREFIX) networks.add(`${network.address}/${network.prefix}`);
  }
  return [...networks].sort();
}

/** The host's connected networks (see `connectedNetworks`), from `ip -json -4 route show table all`. */
export async function readConnectedNetworks(): Promise<string[]> {
  let output: string;
  try {
    output = (await execa('ip', ['-json', '-4', 'route', 'show', 'table', 'all'])).stdout;
  } catch (error) {
    throw new SandboxError(
      `docker sandboxes need \`ip\` (iproute2) to read the host's routes, so that the firewall fences off the networks ` +
        `the host is connected to: ${error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error)}`,
    );
  }
  return connectedNetworks(JSON.parse(output === '' ? '[]' : output) as HostRoute[]);
}

function cidr(destination: string): { address: string; prefix: number } | null {
  const [address, prefixText] = destination.split('/');
  const prefix = prefixText === undefined ? 32 : Number(prefixText);
  if (address === undefined || !isIPv4(address) || !Number.isInteger(prefix) || prefix < 0 || prefix > 32) return null;
  return { address, prefix };
}
