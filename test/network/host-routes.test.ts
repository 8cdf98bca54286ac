import { describe, expect, it } from 'vitest';
import { connectedNetworks, localAddresses, type HostRoute } from '../../src/network/host-routes.js';

/** `ip -json -4 route show table all` of a host on a LAN 192.0.2.0/24 behind 192.0.2.1, with Docker and a VPN. */
const ROUTES: HostRoute[] = [
  { dst: 'default', gateway: '192.0.2.1' },
  { dst: '172.17.0.0/16' },
  { dst: '192.0.2.0/24' },
  // A router reached through an on-link route, outside every connected network.
  { dst: '198.51.100.0/24', gateway: '203.0.113.9' },
  { dst: '203.0.113.9' },
  // Equal-cost multipath: both routers are local hosts.
  { dst: '100.70.0.0/16', nexthops: [{ gateway: '192.0.2.5' }, { gateway: '192.0.2.6' }] },
  // A VPN's split default straight out of its tunnel device, and its default in a policy table: the internet.
  { dst: '0.0.0.0/1' },
  { dst: '128.0.0.0/1' },
  { dst: 'default', type: 'unicast' },
  // The host's own addresses and broadcasts: traffic to them is not forwarded.
  { dst: '192.0.2.2', type: 'local' },
  { dst: '192.0.2.255', type: 'broadcast' },
  { dst: '10.99.0.0/16', type: 'blackhole' },
];

describe('connectedNetworks', () => {
  it('takes the destinations of gateway-less unicast routes and every gateway, sorted and once each', () => {
    expect(connectedNetworks(ROUTES, 4)).toEqual([
      '172.17.0.0/16',
      '192.0.2.0/24',
      '192.0.2.1/32',
      '192.0.2.5/32',
      '192.0.2.6/32',
      '203.0.113.9/32',
    ]);
  });

  it('leaves out routes to prefixes shorter than /8 and malformed destinations', () => {
    expect(connectedNetworks([{ dst: '64.0.0.0/2' }, { dst: '10.0.0.0/8' }, { dst: 'fe80::/64' }, { dst: '10.0.0.0/33' }], 4)).toEqual(['10.0.0.0/8']);
  });
});

/** `ip -json -6 route show table all` of the same host: a global /64 on its LAN, a VPN's split default, a tunnel. */
const ROUTES_V6: HostRoute[] = [
  { dst: '2001:db8:5::/64' },
  { dst: 'fe80::/64' },
  { dst: 'default', gateway: 'fe80::1' },
  { dst: '2a01:4f8:1::/48', gateway: '2001:db8:5::fe' },
  { dst: '::/1' },
  { dst: '8000::/1' },
  { dst: '2000::/3' },
  { dst: '::1', type: 'local' },
  { dst: '2001:db8:5::2', type: 'local' },
  { dst: 'ff00::/8', type: 'multicast' },
];

describe('connectedNetworks of IPv6', () => {
  it('takes on-link networks and gateways, and leaves out routes shorter than /16 (a way to the internet)', () => {
    expect(connectedNetworks(ROUTES_V6, 6)).toEqual(['2001:db8:5::/64', '2001:db8:5::fe/128', 'fe80::/64', 'fe80::1/128']);
  });

  it('reads only the family it is asked for', () => {
    expect(connectedNetworks([...ROUTES, ...ROUTES_V6], 6)).toEqual(connectedNetworks(ROUTES_V6, 6));
    expect(connectedNetworks([...ROUTES, ...ROUTES_V6], 4)).toEqual(connectedNetworks(ROUTES, 4));
  });
});

describe('localAddresses', () => {
  it("takes the host's own addresses from its local routes, of one family", () => {
    expect(localAddresses(ROUTES, 4)).toEqual(['192.0.2.2/32']);
    expect(localAddresses(ROUTES_V6, 6)).toEqual(['2001:db8:5::2/128', '::1/128']);
  });
});
