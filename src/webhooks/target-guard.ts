import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { lookup as dnsLookupAsync } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { InvalidRequestError } from '../errors.js';

export interface TargetPolicy {
  /** `dev` or `webhooks.allow_private_targets`: http and non-public addresses are allowed. */
  allowPrivate: boolean;
}

/** Addresses a webhook may never reach: they are this host, its network, or its cloud's metadata service. */
const FORBIDDEN = new BlockList();
for (const [net, prefix] of [
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
] as const) {
  FORBIDDEN.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b:1::', 48], // local-use NAT64
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // deprecated site-local
  ['ff00::', 8], // multicast
] as const) {
  FORBIDDEN.addSubnet(net, prefix, 'ipv6');
}

/** IPv6 forms that carry an IPv4 address, which is what a connection to them actually reaches. */
const EMBEDDED_V4 = [
  /^::ffff:(?:0:)?(\d+\.\d+\.\d+\.\d+)$/i, // IPv4-mapped and IPv4-translated
  /^::(\d+\.\d+\.\d+\.\d+)$/, // IPv4-compatible (deprecated)
  /^64:ff9b::(\d+\.\d+\.\d+\.\d+)$/i, // NAT64 well-known prefix
];

/** True when a connection to `ip` would reach a loopback, private, link-local, multicast or unspecified address. */
export function isForbiddenAddress(ip: string): boolean {
  const bare = ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return FORBIDDEN.check(bare, 'ipv4');
  if (family !== 6) return true;
  const v4 = embeddedIpv4(bare);
  if (v4 !== null) return FORBIDDEN.check(v4, 'ipv4');
  return FORBIDDEN.check(bare, 'ipv6');
}

function embeddedIpv4(ipv6: string): string | null {
  const expanded = expandHexV4(ipv6);
  for (const re of EMBEDDED_V4) {
    const m = re.exec(expanded);
    if (m?.[1]) return m[1];
  }
  return null;
}

/** `::ffff:7f00:1` is the same address as `::ffff:127.0.0.1`; write the last 32 bits as dotted quad to compare. */
function expandHexV4(ipv6: string): string {
  const m = /^(.*:)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(ipv6);
  if (!m?.[1] || !m[2] || !m[3] || !/^(::ffff:(0:)?|::|64:ff9b::)$/i.test(m[1])) return ipv6;
  const hi = parseInt(m[2], 16);
  const lo = parseInt(m[3], 16);
  return `${m[1]}${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
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
