import { describe, expect, it } from 'vitest';
import { ForbiddenAddresses } from '../../src/network/forbidden-addresses.js';
import { FORBIDDEN_IPV4_RANGES } from '../../src/network/forbidden-ranges.js';
import { FORWARD_CHAIN, INPUT_CHAIN, PIN_CHAIN, pinRules, sandboxFirewallRules } from '../../src/sandbox/docker/sandbox-firewall.js';

/**
 * The IANA IPv4 Special-Purpose Address Registry: the entries that are not globally reachable, which sandboxes must
 * not reach, and those that are, which they may.
 */
const NOT_GLOBALLY_REACHABLE = [
  '0.0.0.0/8',
  '0.0.0.0/32',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.0.0/29',
  '192.0.0.8/32',
  '192.0.0.170/32',
  '192.0.0.171/32',
  '192.0.2.0/24',
  '192.88.99.2/32',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '240.0.0.0/4',
  '255.255.255.255/32',
];
const GLOBALLY_REACHABLE = ['192.31.196.0/24', '192.52.193.0/24', '192.175.48.0/24'];

function parse(cidr: string): { base: number; prefix: number } {
  const [address, prefix] = cidr.split('/');
  const base = address!.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);
  return { base, prefix: Number(prefix) };
}

/** Whether `outer` contains every address of `inner`. */
function contains(outer: string, inner: string): boolean {
  const o = parse(outer);
  const i = parse(inner);
  const size = 2 ** (32 - o.prefix);
  return o.prefix <= i.prefix && Math.floor(i.base / size) === Math.floor(o.base / size);
}

const dropped = (rules: string[]): string[] =>
  rules.flatMap((rule) => /^-A ERRAND-SANDBOX-FWD -d (\S+) -j DROP$/.exec(rule)?.[1] ?? []);

describe('sandboxFirewallRules', () => {
  const options = { bridge: 'errand0', nameservers: ['10.1.2.3', '127.0.0.53'], connectedNetworks: [] };

  it('accepts replies first, keeps DNS to the host resolver open before any drop and refuses the host', () => {
    const { rules, inputHook, forwardHook } = sandboxFirewallRules(options);
    expect(inputHook).toBe(`-A INPUT -i errand0 -j ${INPUT_CHAIN}`);
    expect(forwardHook).toBe(`-A DOCKER-USER -i errand0 -j ${FORWARD_CHAIN}`);
    const forward = rules.filter((rule) => rule.startsWith(`-A ${FORWARD_CHAIN} `));
    expect(forward[0]).toContain('--ctstate RELATED,ESTABLISHED');
    const dns = forward.findIndex((rule) => rule.includes('-d 10.1.2.3/32') && rule.includes('--dport 53'));
    const firstDrop = forward.findIndex((rule) => rule.endsWith('-j DROP'));
    expect(dns).toBeGreaterThan(0);
    expect(firstDrop).toBeGreaterThan(dns);
    expect(forward.at(-1)).toBe(`-A ${FORWARD_CHAIN} -j RETURN`);
    expect(forward.some((rule) => rule.includes('127.0.0.53'))).toBe(false);
    expect(rules.filter((rule) => rule.startsWith(`-A ${INPUT_CHAIN} `)).at(-1)).toBe(`-A ${INPUT_CHAIN} -j DROP`);
  });

  it('drops every special-purpose range that is not globally reachable, the TEST-NETs included, and multicast', () => {
    const drops = dropped(sandboxFirewallRules(options).rules);
    for (const range of [...NOT_GLOBALLY_REACHABLE, '224.0.0.0/4']) {
      expect(drops.some((drop) => contains(drop, range)), range).toBe(true);
    }
    for (const range of GLOBALLY_REACHABLE) {
      expect(drops.some((drop) => contains(drop, range) || contains(range, drop)), range).toBe(false);
    }
  });

  it('drops the host’s connected networks and gateways, once each', () => {
    const drops = dropped(sandboxFirewallRules({ ...options, connectedNetworks: ['192.0.2.0/24', '203.0.113.64/28', '198.19.7.1/32', '8.8.4.0/24'] }).rules);
    expect(drops).toEqual(expect.arrayContaining(['203.0.113.64/28', '198.19.7.1/32', '8.8.4.0/24']));
    expect(drops.filter((drop) => drop === '192.0.2.0/24')).toHaveLength(1);
  });

  it('drops the IPv4 ranges the URL guard refuses, from the one list, and the guard refuses every address it drops (issue 21, item 5)', () => {
    const drops = dropped(sandboxFirewallRules(options).rules);
    expect(drops).toEqual(FORBIDDEN_IPV4_RANGES.map(({ range }) => range));
    const guard = new ForbiddenAddresses();
    const quad = (n: number) => [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.');
    for (const drop of drops) {
      const { base, prefix } = parse(drop);
      for (const address of [quad(base), quad(base + 2 ** (32 - prefix) - 1)]) expect(guard.refusal(address), `${address} in ${drop}`).not.toBeNull();
    }
  });
});

describe('the pins of proxied sandboxes (issue 23, item 4)', () => {
  it('are jumped to from both chains right after replies are let through, before anything else is decided', () => {
    const { rules } = sandboxFirewallRules({ bridge: 'errand0', nameservers: ['10.1.2.3'], connectedNetworks: [] });
    for (const chain of [INPUT_CHAIN, FORWARD_CHAIN]) {
      const own = rules.filter((rule) => rule.startsWith(`-A ${chain} `));
      expect(own[0]).toContain('--ctstate RELATED,ESTABLISHED');
      expect(own[1]).toBe(`-A ${chain} -j ${PIN_CHAIN}`);
    }
  });

  it("let the sandbox reach the proxy's addresses on its port and its resolvers' DNS, and refuse everything else it sends", () => {
    expect(pinRules('172.30.0.7', { addresses: ['203.0.113.9', '198.51.100.4'], port: 3128 }, ['10.1.2.3', '127.0.0.53'])).toEqual([
      `-A ${PIN_CHAIN} -s 172.30.0.7/32 -d 203.0.113.9/32 -p tcp -m tcp --dport 3128 -j ACCEPT`,
      `-A ${PIN_CHAIN} -s 172.30.0.7/32 -d 198.51.100.4/32 -p tcp -m tcp --dport 3128 -j ACCEPT`,
      `-A ${PIN_CHAIN} -s 172.30.0.7/32 -d 10.1.2.3/32 -p udp -m udp --dport 53 -j RETURN`,
      `-A ${PIN_CHAIN} -s 172.30.0.7/32 -d 10.1.2.3/32 -p tcp -m tcp --dport 53 -j RETURN`,
      `-A ${PIN_CHAIN} -s 172.30.0.7/32 -p tcp -j REJECT --reject-with tcp-reset`,
      `-A ${PIN_CHAIN} -s 172.30.0.7/32 -j DROP`,
    ]);
  });
});
