import { isIP } from 'node:net';

/** An IP address as a number: IPv4 in 32 bits, IPv6 in 128. */
export interface IpAddress {
  family: 4 | 6;
  value: bigint;
}

/** A network: the addresses whose first `prefix` bits are those of `base`. */
export interface Cidr extends IpAddress {
  prefix: number;
}

const BITS = { 4: 32, 6: 128 } as const;

/**
 * Reads an address as a socket would connect to it: brackets and a zone (`%eth0`) are dropped, and an IPv6 address
 * may end in a dotted quad. Null for anything else, including the shorthand IPv4 forms (`2130706433`, `127.1`)
 * that only a URL parser expands (`new URL` has already done so for a host).
 */
export function parseIp(text: string): IpAddress | null {
  const bare = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return { family: 4, value: ipv4Value(bare) };
  if (family !== 6) return null;
  const groups = ipv6Groups(bare);
  return groups === null ? null : { family: 6, value: groups.reduce((sum, group) => (sum << 16n) | BigInt(group), 0n) };
}

/** `a.b.c.d/n` or `x::/n`; a bare address is a network of one. Null when malformed. */
export function parseCidr(text: string): Cidr | null {
  const [address, prefixText, ...rest] = text.split('/');
  if (address === undefined || rest.length > 0) return null;
  const ip = parseIp(address);
  if (ip === null) return null;
  const prefix = prefixText === undefined ? BITS[ip.family] : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : -1;
  if (prefix < 0 || prefix > BITS[ip.family]) return null;
  return { ...ip, prefix };
}

export function cidrContains(network: Cidr, ip: IpAddress): boolean {
  if (network.family !== ip.family) return false;
  const shift = BigInt(BITS[ip.family] - network.prefix);
  return network.value >> shift === ip.value >> shift;
}

/** The 32-bit value as a dotted quad. */
export function dottedQuad(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 255n)).join('.');
}

function ipv4Value(text: string): bigint {
  return text.split('.').reduce((sum, octet) => (sum << 8n) | BigInt(Number(octet)), 0n);
}

/** The eight 16-bit groups of an IPv6 address (`::` expanded, a trailing dotted quad read as two groups), or null. */
function ipv6Groups(text: string): number[] | null {
  let rest = text;
  const tail: number[] = [];
  const quad = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(rest);
  if (quad) {
    const bytes = quad.slice(2).map(Number);
    if (bytes.some((b) => b > 255)) return null;
    tail.push((bytes[0]! << 8) | bytes[1]!, (bytes[2]! << 8) | bytes[3]!);
    rest = quad[1]!.endsWith('::') ? quad[1]! : quad[1]!.slice(0, -1);
  }
  const parse = (part: string): number[] | null => {
    if (part === '') return [];
    const out = part.split(':').map((h) => (/^[0-9a-f]{1,4}$/i.test(h) ? parseInt(h, 16) : Number.NaN));
    return out.some(Number.isNaN) ? null : out;
  };
  const halves = rest.split('::');
  if (halves.length > 2) return null;
  const head = parse(halves[0]!);
  const after = halves.length === 2 ? parse(halves[1]!) : [];
  if (head === null || after === null) return null;
  const known = head.length + after.length + tail.length;
  if (halves.length === 1 ? known !== 8 : known > 7) return null;
  return [...head, ...new Array<number>(8 - known).fill(0), ...after, ...tail];
}
