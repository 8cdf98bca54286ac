import type { LookupAddress } from 'node:dns';
import { lookup as systemLookup, Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { Config } from '../config/schema.js';
import { ConfigError } from '../errors.js';
import { dottedQuad, parseIp } from './ip-address.js';

/** Answers that say a name or record does not exist, as opposed to a failure to ask. */
const NO_SUCH_NAME = new Set(['ENOTFOUND', 'ENODATA']);

/**
 * Every DNS lookup the daemon makes (issue 21, item 8): the addresses of the hosts of callback, webhook and MCP
 * URLs (checked by the guard, and again when connecting), mail's records (SPF, DKIM, DMARC, MX) and the reverse
 * lookup of SMTP clients, all through the servers `dns.servers` names. Without it: the system's, which for
 * addresses is getaddrinfo (/etc/hosts, then the servers of /etc/resolv.conf) and for records those servers.
 *
 * Names are read as DNS reads them: case does not matter and a trailing dot (`LOCALHOST.`) only says the name is
 * absolute. `localhost` and the names under it are loopback and `invalid` never exists (RFC 6761, 6.3 and 6.4):
 * both are answered here without asking anyone, as that RFC asks of resolver APIs, so no server can say otherwise.
 */
export class HostResolver {
  private readonly resolver = new Resolver({ timeout: 3_000, tries: 2 });

  constructor(readonly servers: readonly string[]) {
    if (servers.length > 0) this.resolver.setServers([...servers]);
  }

  static fromConfig(config: Pick<Config, 'dns.servers'>): HostResolver {
    return new HostResolver(readDnsServers(config['dns.servers']));
  }

  /**
   * Every address `host` has (A and AAAA), as `dns.lookup` with `all` answers them. A name that does not exist
   * fails with ENOTFOUND.
   */
  async addresses(host: string): Promise<LookupAddress[]> {
    const name = host.replace(/^\[|\]$/g, '').replace(/\.+$/, '').toLowerCase();
    const family = isIP(name);
    if (family !== 0) return [{ address: name, family }];
    if (name === 'localhost' || name.endsWith('.localhost')) return [{ address: '127.0.0.1', family: 4 }, { address: '::1', family: 6 }];
    if (name === 'invalid' || name.endsWith('.invalid') || name === '') throw noSuchName(host);
    if (this.servers.length === 0) return systemLookup(name, { all: true, verbatim: true });
    const [v4, v6] = await Promise.allSettled([this.resolver.resolve4(name), this.resolver.resolve6(name)]);
    const found = [
      ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 })) : []),
      ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 })) : []),
    ];
    if (found.length > 0) return found;
    const failure = [v4, v6].map((r) => (r.status === 'rejected' ? (r.reason as NodeJS.ErrnoException) : null)).find((e) => e !== null && !NO_SUCH_NAME.has(e.code ?? ''));
    throw failure ?? noSuchName(host);
  }

  /**
   * The names of an address's PTR records. With servers configured, only they are asked: the resolver's own
   * `reverse` would read /etc/hosts first.
   */
  reverse(ip: string): Promise<string[]> {
    if (this.servers.length === 0) return this.resolver.reverse(ip);
    const name = reverseName(ip);
    return name === null ? Promise.reject(Object.assign(new Error(`${ip} is not an IP address`), { code: 'EINVAL' })) : this.resolver.resolvePtr(name);
  }

  /** Records of one type, in the shape `dns.promises.resolve` answers them. */
  records(name: string, rrtype: string): Promise<unknown> {
    return this.resolver.resolve(name, rrtype as 'TXT');
  }
}

/** `4.3.2.1.in-addr.arpa` or the nibbles of `ip6.arpa` (RFC 3596); an IPv4-mapped address as its IPv4 address. */
export function reverseName(ip: string): string | null {
  const parsed = parseIp(ip);
  if (parsed === null) return null;
  const mapped = parsed.family === 6 && parsed.value >> 32n === 0xffffn;
  if (parsed.family === 4 || mapped) return `${dottedQuad(parsed.value & 0xffffffffn).split('.').reverse().join('.')}.in-addr.arpa`;
  return `${[...parsed.value.toString(16).padStart(32, '0')].reverse().join('.')}.ip6.arpa`;
}

function noSuchName(host: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${host} does not resolve`), { code: 'ENOTFOUND', hostname: host });
}

/** `dns.servers`: comma-separated IP addresses, each optionally with a port (`[v6]:port` for IPv6 with one). */
export function readDnsServers(value: string | null): string[] {
  if (value === null) return [];
  const servers = value.split(',').map((s) => s.trim()).filter((s) => s !== '');
  for (const server of servers) {
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(server);
    const plain = /^([^:]+)(?::(\d+))?$/.exec(server);
    const [host, port] = bracketed ? [bracketed[1]!, bracketed[2]] : isIP(server) === 6 ? [server, undefined] : plain ? [plain[1]!, plain[2]] : ['', undefined];
    if (isIP(host) === 0 || (port !== undefined && (Number(port) < 1 || Number(port) > 65535))) {
      throw new ConfigError('dns.servers', `must be IP addresses, each optionally with :port, got ${JSON.stringify(server)}`);
    }
  }
  return servers;
}
