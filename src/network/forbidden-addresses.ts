import { cidrContains, dottedQuad, parseCidr, parseIp, type Cidr, type IpAddress } from './ip-address.js';
import { EMBEDDING_IPV4_RANGES, FORBIDDEN_IPV4_RANGES, FORBIDDEN_IPV6_RANGES, type ForbiddenRange } from './forbidden-ranges.js';

/** Why an address is refused: the range it falls in, and what that range is. */
export interface AddressRefusal {
  range: string;
  name: string;
}

const HOST_NETWORK = "this host's own address, or a network it is directly connected to";

interface Entry {
  cidr: Cidr;
  range: string;
  name: string;
}

/**
 * The addresses a connection made for a caller may not reach: the special-purpose ranges of `forbidden-ranges.ts`,
 * and the host's own addresses and connected networks as they were read (`HostNetworks`). An IPv6 address that
 * carries an IPv4 address (IPv4-mapped, NAT64, 6to4) is decided by that IPv4 address, host networks included.
 */
export class ForbiddenAddresses {
  /** Special-purpose ranges before the host's networks, so that 127.0.0.1 is named loopback, not an own address. */
  private readonly ipv4: Entry[];
  private readonly ipv6: Entry[];
  private readonly embedding = EMBEDDING_IPV4_RANGES.map((e) => ({ ...entry(e), shift: BigInt(e.shift) }));

  /** `hostNetworks`: CIDRs of both families; entries that do not parse are ignored. */
  constructor(hostNetworks: readonly string[] = []) {
    const host = hostNetworks.flatMap((range) => (parseCidr(range) === null ? [] : [entry({ range, name: HOST_NETWORK })]));
    // The narrowest range that holds an address names it best (::1 is loopback before it is IPv4-compatible).
    const narrowestFirst = (a: Entry, b: Entry): number => b.cidr.prefix - a.cidr.prefix;
    this.ipv4 = [...FORBIDDEN_IPV4_RANGES.map(entry).sort(narrowestFirst), ...host.filter((e) => e.cidr.family === 4)];
    this.ipv6 = [...FORBIDDEN_IPV6_RANGES.map(entry).sort(narrowestFirst), ...host.filter((e) => e.cidr.family === 6)];
  }

  /** Why a connection to `address` is refused, or null when it may be made. What is not an IP address is refused. */
  refusal(address: string): AddressRefusal | null {
    const ip = parseIp(address);
    if (ip === null) return { range: address, name: 'not an IP address' };
    if (ip.family === 4) return this.match(this.ipv4, ip);
    const own = this.match(this.ipv6, ip);
    if (own !== null) return own;
    const carrier = this.embedding.find((e) => cidrContains(e.cidr, ip));
    if (carrier === undefined) return null;
    const v4: IpAddress = { family: 4, value: (ip.value >> carrier.shift) & 0xffffffffn };
    const inner = this.match(this.ipv4, v4);
    return inner === null ? null : { range: `${inner.range} (as ${carrier.range})`, name: `${inner.name}, reached through ${carrier.name} ${dottedQuad(v4.value)}` };
  }

  private match(entries: readonly Entry[], ip: IpAddress): AddressRefusal | null {
    const found = entries.find((e) => cidrContains(e.cidr, ip));
    return found === undefined ? null : { range: found.range, name: found.name };
  }
}

function entry(r: ForbiddenRange): Entry {
  const cidr = parseCidr(r.range);
  if (cidr === null) throw new Error(`malformed range ${r.range}`);
  return { cidr, range: r.range, name: r.name };
}
