import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { lookup as dnsLookupAsync } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { InvalidRequestError } from '../errors.js';

export interface TargetPolicy {
  /** `dev` or `webhooks.allow_private_targets`: http and non-public addresses are allowed. */
  allowPrivate: boolean;
}

/** IPv4 ranges a webhook may never reach: this host, its networks, or its cloud's metadata service. */
export const FORBIDDEN_IPV4_RANGES = [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const;

const FORBIDDEN = new BlockList();
for (const [net, prefix] of FORBIDDEN_IPV4_RANGES) FORBIDDEN.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215): translated by this site's own gateway, never public
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // deprecated site-local
  ['ff00::', 8], // multicast
] as const) {
  FORBIDDEN.addSubnet(net, prefix, 'ipv6');
}

/** True when a connection to `ip` would reach a loopback, private, link-local, multicast or unspecified address. */
export function isForbiddenAddress(ip: string): boolean {
  const bare = ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return FORBIDDEN.check(bare, 'ipv4');
  if (family !== 6) return true;
  const groups = ipv6Groups(bare);
  if (groups === null) return true;
  if (embeddedIpv4(groups).some((v4) => FORBIDDEN.check(v4, 'ipv4'))) return true;
  return FORBIDDEN.check(bare, 'ipv6');
}

/**
 * The IPv4 addresses an IPv6 address carries, which is what a connection to it may actually reach (#10): the
 * IPv4-mapped (::ffff:0:0/96), IPv4-translated (::ffff:0:0:0/96) and IPv4-compatible (::/96) forms, NAT64's
 * well-known prefix (64:ff9b::/96, RFC 6052), 6to4 (2002::/16, RFC 3056: the relay forwards to the IPv4 address in
 * bits 16-47) and Teredo (2001::/32, RFC 4380: the server in bits 32-63, the client's address inverted in the last
 * 32 bits; both are checked).
 */
function embeddedIpv4(g: number[]): string[] {
  const zero = (from: number, to: number): boolean => g.slice(from, to).every((x) => x === 0);
  const low = dottedQuad(g[6]!, g[7]!);
  if (zero(0, 5) && g[5] === 0xffff) return [low];
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) return [low];
  if (zero(0, 6)) return [low];
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return [low];
  if (g[0] === 0x2002) return [dottedQuad(g[1]!, g[2]!)];
  if (g[0] === 0x2001 && g[1] === 0) return [dottedQuad(g[2]!, g[3]!), dottedQuad(~g[6]! & 0xffff, ~g[7]! & 0xffff)];
  return [];
}

function dottedQuad(hi: number, lo: number): string {
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
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

function refuse(message: string, param = 'callback_url'): InvalidRequestError {
  return new InvalidRequestError('invalid_callback_url', message, { param });
}

/** Parses the URL and checks what can be known without DNS; returns the host to resolve. */
function checkUrl(url: string, policy: TargetPolicy, param = 'callback_url'): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw refuse(`${param} '${url}' is not an absolute URL`, param);
  }
  if (parsed.protocol !== 'https:' && !(policy.allowPrivate && parsed.protocol === 'http:')) {
    throw refuse(
      policy.allowPrivate
        ? `${param} must use http or https, got '${parsed.protocol}'`
        : `${param} must use https (got '${parsed.protocol}'); http targets need dev mode or webhooks.allow_private_targets`,
      param,
    );
  }
  if (parsed.username !== '' || parsed.password !== '') throw refuse(`${param} must not carry credentials`, param);
  return parsed;
}

function forbiddenMessage(host: string, address: string, param = 'callback_url'): string {
  return `${param} host '${host}' resolves to ${address}, a loopback, private or link-local address; such targets need dev mode or webhooks.allow_private_targets`;
}

/**
 * Refuses a webhook target that is not https or whose host resolves to anything but public addresses. Every
 * resolved address must be public: an attacker's DNS may answer with several. Delivery checks again on the
 * address it connects to (`pinnedLookup`), because DNS may answer differently by then. `param` names the member
 * in the error (`schedule.callback_url` for a job's schedule).
 */
export async function checkWebhookTarget(url: string, policy: TargetPolicy, param = 'callback_url'): Promise<void> {
  const parsed = checkUrl(url, policy, param);
  if (policy.allowPrivate) return;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) {
    if (isForbiddenAddress(host)) throw refuse(forbiddenMessage(host, host, param), param);
    return;
  }
  let addresses: LookupAddress[];
  try {
    addresses = await dnsLookupAsync(host, { all: true, verbatim: true });
  } catch {
    throw refuse(`${param} host '${host}' does not resolve`, param);
  }
  if (addresses.length === 0) throw refuse(`${param} host '${host}' does not resolve`, param);
  const bad = addresses.find((a) => isForbiddenAddress(a.address));
  if (bad) throw refuse(forbiddenMessage(host, bad.address, param), param);
}

export class ForbiddenTargetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ForbiddenTargetError';
  }
}

/**
 * Checks a delivery target before connecting: the scheme, and an IP-literal host (which never goes through a
 * lookup). Throws `ForbiddenTargetError`.
 */
export function assertDeliverableUrl(url: URL, policy: TargetPolicy, label = 'callback_url'): void {
  try {
    checkUrl(url.href, policy, label);
  } catch (err) {
    throw new ForbiddenTargetError((err as Error).message);
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!policy.allowPrivate && isIP(host) !== 0 && isForbiddenAddress(host)) throw new ForbiddenTargetError(forbiddenMessage(host, host, label));
}

/**
 * A `lookup` for `http(s).request` that refuses forbidden addresses, so the check applies to the address the
 * socket actually connects to and a DNS answer that changed since the URL was accepted (rebinding) is caught.
 */
export function pinnedLookup(policy: TargetPolicy, label = 'callback_url'): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as LookupAddress[];
      if (!policy.allowPrivate) {
        const bad = list.find((a) => isForbiddenAddress(a.address));
        if (bad) return callback(new ForbiddenTargetError(forbiddenMessage(hostname, bad.address, label)), '', 0);
      }
      if (list.length === 0) return callback(Object.assign(new Error(`${hostname} does not resolve`), { code: 'ENOTFOUND' }), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      const first = list[0]!;
      callback(null, first.address, first.family);
    });
  };
}
