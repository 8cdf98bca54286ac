/**
 * The addresses nothing the daemon dials for a caller may reach, whatever the host's routes say: the callback and
 * MCP URL guard (`target-guard.ts`) and the sandbox firewall (`sandbox/docker/sandbox-firewall.ts`) both read these
 * lists, so the two cannot drift apart again (issue 21, item 5). The host's own addresses and connected networks
 * come on top, from its routes (`host-networks.ts`).
 */
export interface ForbiddenRange {
  range: string;
  /** Why, in the words of the IANA registry (or the RFC) that sets the range aside. */
  name: string;
}

/**
 * Every range of the IANA IPv4 Special-Purpose Address Registry that is not globally reachable, and multicast. The
 * registry's globally reachable entries (192.31.196.0/24 and 192.175.48.0/24 for AS112, 192.52.193.0/24 for AMT)
 * stay open like the rest of the internet; the two anycast addresses inside 192.0.0.0/24 that are globally
 * reachable (PCP and TURN) are refused with their block, since no task, webhook receiver or MCP server needs them.
 */
export const FORBIDDEN_IPV4_RANGES: readonly ForbiddenRange[] = [
  { range: '0.0.0.0/8', name: '"this network"' },
  { range: '10.0.0.0/8', name: 'private use' },
  { range: '100.64.0.0/10', name: 'shared address space (carrier-grade NAT)' },
  { range: '127.0.0.0/8', name: 'loopback' },
  { range: '169.254.0.0/16', name: 'link local (cloud metadata at 169.254.169.254)' },
  { range: '172.16.0.0/12', name: 'private use' },
  { range: '192.0.0.0/24', name: 'IETF protocol assignments' },
  { range: '192.0.2.0/24', name: 'documentation (TEST-NET-1)' },
  { range: '192.88.99.0/24', name: 'deprecated 6to4 relay anycast, and 6a44 relay anycast' },
  { range: '192.168.0.0/16', name: 'private use' },
  { range: '198.18.0.0/15', name: 'benchmarking' },
  { range: '198.51.100.0/24', name: 'documentation (TEST-NET-2)' },
  { range: '203.0.113.0/24', name: 'documentation (TEST-NET-3)' },
  { range: '224.0.0.0/4', name: 'multicast' },
  { range: '240.0.0.0/4', name: 'reserved, and the limited broadcast address' },
];

/**
 * The IPv6 ranges refused as a whole: the entries of the IANA IPv6 Special-Purpose Address Registry that are not
 * globally reachable, multicast and the deprecated site-local block, and the forms that carry an IPv4 address no
 * public server is reached by. Three forms that carry an IPv4 address are not here, because a connection to them
 * does reach that IPv4 address and is decided by it (`EMBEDDING_IPV4_RANGES`).
 */
export const FORBIDDEN_IPV6_RANGES: readonly ForbiddenRange[] = [
  { range: '::/128', name: 'unspecified' },
  { range: '::1/128', name: 'loopback' },
  // Deprecated by RFC 4291; only an automatic tunnel (sit) would dial one, to the IPv4 address in its last 32 bits.
  { range: '::/96', name: 'IPv4-compatible (deprecated)' },
  // SIIT's IPv4-translated form (RFC 2765, obsoleted): only a translator on the path would reach its IPv4 address.
  { range: '::ffff:0:0:0/96', name: 'IPv4-translated (obsolete)' },
  // Translated by this site's own NAT64 gateway (RFC 8215): whatever IPv4 it names is reached from inside.
  { range: '64:ff9b:1::/48', name: 'local-use IPv4/IPv6 translation' },
  { range: '100::/64', name: 'discard-only' },
  { range: '100:0:0:1::/64', name: 'dummy IPv6 prefix' },
  // The whole block, as for 192.0.0.0/24: its globally reachable entries are anycast services (PCP, TURN, AMT,
  // AS112) that no webhook receiver or MCP server is. Teredo (2001::/32) is in it: a Teredo address carries its
  // client's IPv4 address inverted, which a relay, or the host's own Teredo interface, would dial; the public Teredo
  // service is gone, so refusing it costs nothing and leaves nothing to disguise.
  { range: '2001::/23', name: 'IETF protocol assignments (Teredo, benchmarking, ORCHID and others)' },
  { range: '2001:db8::/32', name: 'documentation' },
  { range: '3fff::/20', name: 'documentation' },
  { range: '5f00::/16', name: 'segment routing (SRv6) SIDs' },
  { range: 'fc00::/7', name: 'unique local' },
  { range: 'fe80::/10', name: 'link local' },
  { range: 'fec0::/10', name: 'site local (deprecated)' },
  { range: 'ff00::/8', name: 'multicast' },
];

/** Where an IPv6 address carries the IPv4 address a connection to it reaches, and which of its bits hold it. */
export interface EmbeddingRange extends ForbiddenRange {
  /** The embedded IPv4 address's lowest bit, counted from the IPv6 address's lowest (0). */
  shift: number;
}

/**
 * IPv6 forms decided by the IPv4 address they carry, checked against the IPv4 ranges and the host's IPv4 networks:
 * a public one is as reachable as any IPv4 host, and a forbidden one is refused. NAT64's gateway sits on the
 * host's own network, so the IPv4 address is reached from there, exactly as the host would reach it.
 */
export const EMBEDDING_IPV4_RANGES: readonly EmbeddingRange[] = [
  // The socket connects to the IPv4 address itself.
  { range: '::ffff:0:0/96', name: 'IPv4-mapped', shift: 0 },
  // RFC 6052: the site's NAT64 gateway connects to the IPv4 address in the last 32 bits.
  { range: '64:ff9b::/96', name: 'IPv4/IPv6 translation (NAT64)', shift: 0 },
  // RFC 3056: a 6to4 relay, or the host's own 6to4 interface, sends to the IPv4 address in bits 16-47.
  { range: '2002::/16', name: '6to4', shift: 80 },
];
