/**
 * The guard of callback, webhook and MCP URLs, tested by its decisions: names resolve through a DNS server on
 * loopback that answers with the addresses under test, and nothing is ever connected to (issue 21, items 5 and 8).
 */
import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../src/errors.js';
import { ForbiddenAddresses } from '../../src/network/forbidden-addresses.js';
import { FORBIDDEN_IPV4_RANGES, FORBIDDEN_IPV6_RANGES } from '../../src/network/forbidden-ranges.js';
import { ForbiddenTargetError, type TargetGuard } from '../../src/network/target-guard.js';
import { LoopbackDns } from '../fixtures/dns-server.js';
import { testGuard } from '../fixtures/test-guard.js';

/** Public addresses, for answers that must pass; nothing connects to them. */
const PUBLIC_V4 = '93.184.215.14';
const PUBLIC_V6 = '2606:2800:21f:cb07:6820:80da:af6b:8b2c';

let dns: LoopbackDns;
let strict: TargetGuard;
let dev: TargetGuard;

beforeAll(async () => {
  dns = await LoopbackDns.start();
  strict = testGuard({ allowPrivate: false, dnsServer: dns.server });
  dev = testGuard({ allowPrivate: true, dnsServer: dns.server });
});

afterAll(async () => {
  await dns?.close();
});

const special = new ForbiddenAddresses();
const isForbidden = (ip: string): boolean => special.refusal(ip) !== null;

describe('ForbiddenAddresses', () => {
  it.each([
    '127.0.0.1', '127.255.0.9', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1',
    '0.0.0.0', '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'fe80::1%eth0', 'fc00::1', 'fd12:3456::1', 'ff02::1',
    '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:a9fe:a9fe', '64:ff9b::7f00:1', '::127.0.0.1', '[::1]', 'not-an-address',
  ])('forbids %s', (ip) => {
    expect(isForbidden(ip)).toBe(true);
  });

  it.each([
    ['TEST-NET-1', '192.0.2.1'],
    ['TEST-NET-2', '198.51.100.7'],
    ['TEST-NET-3', '203.0.113.10'],
    ['the 6to4 relay anycast', '192.88.99.1'],
    ['IPv6 documentation', '2001:db8::1'],
    ['IPv6 documentation (RFC 9637)', '3fff::1'],
    ['IPv6 discard-only', '100::1'],
    ['IPv6 benchmarking', '2001:2::1'],
    ['SRv6 SIDs', '5f00::1'],
    ['the IPv4-translated form of a public address', '::ffff:0:808:808'],
  ])('forbids %s, which the sandbox firewall dropped and the guard let through (issue 21, item 5): %s', (_what, ip) => {
    expect(isForbidden(ip)).toBe(true);
  });

  it.each([PUBLIC_V4, '8.8.8.8', '1.1.1.1', '172.32.0.1', '192.31.196.1', '2606:4700:4700::1111', '2001:4860:4860::8888', PUBLIC_V6, '::ffff:8.8.8.8'])(
    'allows %s',
    (ip) => {
      expect(isForbidden(ip)).toBe(false);
    },
  );

  it('names the range an address falls in, and why it is set aside', () => {
    expect(special.refusal('192.0.2.7')).toEqual({ range: '192.0.2.0/24', name: 'documentation (TEST-NET-1)' });
    expect(special.refusal('::1')).toEqual({ range: '::1/128', name: 'loopback' });
    expect(special.refusal('::ffff:169.254.169.254')).toMatchObject({ range: '169.254.0.0/16 (as ::ffff:0:0/96)' });
  });

  it.each([...FORBIDDEN_IPV4_RANGES, ...FORBIDDEN_IPV6_RANGES].flatMap(({ range }) => samplesOf(range).map((ip) => [range, ip] as const)))(
    'forbids every address of %s, such as %s',
    (_range, ip) => {
      expect(isForbidden(ip)).toBe(true);
    },
  );

  it("forbids the host's own addresses and connected networks, of both families and in every IPv4-carrying form", () => {
    const host = new ForbiddenAddresses(['8.8.4.0/24', '2a00:1450:4001::/48', '9.9.9.9/32']);
    for (const ip of ['8.8.4.4', '9.9.9.9', '::ffff:8.8.4.4', '64:ff9b::808:404', '2002:808:404::1', '2a00:1450:4001::5']) {
      expect(host.refusal(ip), ip).toMatchObject({ name: expect.stringContaining('directly connected') });
    }
    expect(host.refusal('8.8.8.8')).toBeNull();
    expect(host.refusal('2a00:1450:4002::5')).toBeNull();
  });
});

/** The two 16-bit groups of a dotted quad, as hex. */
function hexGroups(v4: string): [string, string] {
  const [a, b, c, d] = v4.split('.').map(Number) as [number, number, number, number];
  return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
}

/** An address inside a range: its first, one inside, and its last. */
function samplesOf(range: string): string[] {
  const [net, prefixText] = range.split('/') as [string, string];
  const prefix = Number(prefixText);
  if (!net.includes(':')) {
    const base = net.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);
    const size = 2 ** (32 - prefix);
    const quad = (n: number) => [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.');
    return [quad(base), quad(base + Math.min(1, size - 1)), quad(base + size - 1)];
  }
  const [head = '', tail = ''] = net.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((h) => parseInt(h, 16)));
  const known = [...groups(head), ...new Array<number>(8 - groups(head).length - groups(tail).length).fill(0), ...groups(tail)];
  const base = known.reduce((n, g) => (n << 16n) | BigInt(g), 0n);
  const size = 1n << BigInt(128 - prefix);
  const text = (n: bigint) => [...Array(8).keys()].map((i) => ((n >> BigInt(112 - 16 * i)) & 0xffffn).toString(16)).join(':');
  return [text(base), text(base + (size > 1n ? 1n : 0n)), text(base + size - 1n)];
}

describe('ForbiddenAddresses on IPv6 forms that carry an IPv4 address (#10)', () => {
  const inverted = (v4: string) => hexGroups(v4).map((h) => (~parseInt(h, 16) & 0xffff).toString(16));
  const forms = {
    '6to4 (2002::/16)': (v4: string) => `2002:${hexGroups(v4).join(':')}::1`,
    'Teredo client (2001::/32)': (v4: string) => `2001:0:4136:e378:8000:63bf:${inverted(v4).join(':')}`,
    'Teredo server (2001::/32)': (v4: string) => `2001:0:${hexGroups(v4).join(':')}:8000:63bf:f7f7:f7f7`,
    'NAT64 (64:ff9b::/96)': (v4: string) => `64:ff9b::${v4}`,
    'NAT64 written out (64:ff9b::/96)': (v4: string) => `64:ff9b:0:0:0:0:${hexGroups(v4).join(':')}`,
    'local-use NAT64 (64:ff9b:1::/48)': (v4: string) => `64:ff9b:1::${hexGroups(v4).join(':')}`,
    'IPv4-mapped written out': (v4: string) => `0:0:0:0:0:ffff:${hexGroups(v4).join(':')}`,
    'IPv4-translated (::ffff:0:0:0/96)': (v4: string) => `::ffff:0:${v4}`,
  };
  const cases = Object.entries(forms).flatMap(([form, wrap]) =>
    FORBIDDEN_IPV4_RANGES.flatMap(({ range }) => samplesOf(range).map((v4) => [form, range, v4, wrap(v4)] as const)),
  );

  it.each(cases)('forbids the %s form of %s (%s as %s)', (_form, _range, _v4, ip) => {
    expect(isForbidden(ip)).toBe(true);
  });

  it.each([
    ['6to4 of 8.8.8.8', '2002:808:808::1'],
    ['NAT64 of 1.1.1.1', '64:ff9b::1.1.1.1'],
    ['NAT64 of 8.8.8.8 written out', '64:ff9b:0:0:0:0:808:808'],
  ])('allows %s (%s)', (_what, ip) => {
    expect(isForbidden(ip)).toBe(false);
  });

  it('forbids every Teredo address, even one whose server and client are public: the service is gone, and the inverted client address is easy to disguise', () => {
    expect(special.refusal('2001:0:4136:e378:8000:63bf:f7f7:f7f7')).toMatchObject({ range: '2001::/23' });
  });

  it('refuses a callback URL whose host is a 6to4 address wrapping 127.0.0.1', async () => {
    expect((await refusal('https://[2002:7f00:1::]/x')).message).toMatch(/loopback, private or link-local/);
  });

  it('treats an unparsable IPv6 literal as forbidden', () => {
    expect(isForbidden('2002:7f00:1::1::2')).toBe(true);
  });
});

async function refusal(url: string, guard: TargetGuard = strict, param?: string): Promise<InvalidRequestError> {
  const err = await guard.check(url, param).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InvalidRequestError);
  return err as InvalidRequestError;
}

describe('TargetGuard#check', () => {
  it('refuses http unless private targets are allowed', async () => {
    const err = await refusal('http://203.0.113.10/hook');
    expect(err).toMatchObject({ status: 400, code: 'invalid_callback_url', param: 'callback_url' });
    expect(err.message).toMatch(/must use https/);
  });

  it.each(['https://localhost/hook', 'https://127.0.0.1:8443/hook', 'https://[::1]/hook', 'https://[::ffff:127.0.0.1]/hook', 'https://2130706433/hook'])(
    'refuses the loopback target %s',
    async (url) => {
      expect((await refusal(url)).message).toMatch(/loopback, private or link-local/);
    },
  );

  it('refuses a host that does not resolve', async () => {
    expect((await refusal('https://no-such-host.invalid/hook')).message).toMatch(/does not resolve/);
    expect((await refusal('https://missing.example.test/hook')).message).toMatch(/'missing.example.test' does not resolve/);
  });

  it('refuses what is not a URL, other schemes, and credentials in the URL', async () => {
    expect((await refusal('not a url')).message).toMatch(/not an absolute URL/);
    expect((await refusal('ftp://203.0.113.10/x', dev)).message).toMatch(/http or https/);
    expect((await refusal(`https://user:pw@${PUBLIC_V4}/x`)).message).toMatch(/credentials/);
  });

  it('accepts a public https address, a name whose every address is public, and loopback http when private targets are allowed', async () => {
    dns.set('public.example.test', 'A', [PUBLIC_V4]);
    dns.set('public.example.test', 'AAAA', [PUBLIC_V6]);
    await expect(strict.check(`https://${PUBLIC_V4}/hook`)).resolves.toBeUndefined();
    await expect(strict.check(`https://[${PUBLIC_V6}]/hook`)).resolves.toBeUndefined();
    await expect(strict.check('https://public.example.test/hook')).resolves.toBeUndefined();
    await expect(dev.check('http://127.0.0.1:9/hook')).resolves.toBeUndefined();
    await expect(dev.check('http://localhost:9/hook')).resolves.toBeUndefined();
  });

  it.each([
    ['TEST-NET-1', '192.0.2.7', '192.0.2.0/24'],
    ['TEST-NET-2', '198.51.100.7', '198.51.100.0/24'],
    ['TEST-NET-3', '203.0.113.7', '203.0.113.0/24'],
    ['the 6to4 relay anycast', '192.88.99.7', '192.88.99.0/24'],
    ['IPv6 documentation', '2001:db8::7', '2001:db8::/32'],
    ['a Teredo address carrying TEST-NET-1', '2001:0:4136:e378:8000:63bf:3fff:fdf8', '2001::/23'],
  ])('refuses a name DNS answers with an address of %s (%s), naming the range', async (_what, address, range) => {
    const name = `hook-${address.replace(/[.:]/g, '-')}.example.test`;
    dns.set(name, address.includes(':') ? 'AAAA' : 'A', [address]);
    const err = await refusal(`https://${name}/hook`);
    expect(err).toMatchObject({ code: 'invalid_callback_url', param: 'callback_url' });
    expect(err.message).toContain(`resolves to ${address}, which is not a public address (${range}`);
  });

  it('checks every address of the answer, not only the first, in both families', async () => {
    dns.set('several.example.test', 'A', [PUBLIC_V4, '192.0.2.9']);
    expect((await refusal('https://several.example.test/hook')).message).toContain('192.0.2.9');
    dns.set('six.example.test', 'A', [PUBLIC_V4]);
    dns.set('six.example.test', 'AAAA', ['fd00::9']);
    expect((await refusal('https://six.example.test/hook')).message).toContain('fd00::9');
  });

  it("refuses the host's own connected networks, by name and as a literal", async () => {
    const onLan = testGuard({ allowPrivate: false, dnsServer: dns.server, hostNetworks: ['8.8.4.0/24'] });
    dns.set('neighbour.example.test', 'A', ['8.8.4.4']);
    expect((await refusal('https://neighbour.example.test/hook', onLan)).message).toMatch(/directly connected/);
    expect((await refusal('https://8.8.4.9/hook', onLan)).message).toMatch(/directly connected/);
    expect((await refusal('https://[::ffff:8.8.4.9]/hook', onLan)).message).toMatch(/directly connected/);
  });

  it('resolves a name written with a trailing dot or in capitals through the configured servers, as the same name (issue 21, item 8)', async () => {
    dns.set('dotted.example.test', 'A', ['192.0.2.44']);
    let err: InvalidRequestError | undefined;
    const asked = await dns.questionsDuring(async () => {
      err = await refusal('https://Dotted.Example.TEST./hook');
    });
    expect(asked).toEqual(expect.arrayContaining(['A dotted.example.test', 'AAAA dotted.example.test']));
    expect(err!.message).toContain('192.0.2.44');
  });

  it('answers localhost and its names itself, with or without the trailing dot, and asks no server', async () => {
    const asked = await dns.questionsDuring(async () => {
      for (const url of ['https://LOCALHOST./hook', 'https://localhost../hook', 'https://api.localhost/hook']) {
        expect((await refusal(url)).message, url).toMatch(/127\.0\.0\.1, which is not a public address \(127\.0\.0\.0\/8: loopback\)/);
      }
    });
    expect(asked).toEqual([]);
  });

  it('names the member it was given', async () => {
    const err = await refusal('https://localhost/hook', strict, 'schedule.callback_url');
    expect(err).toMatchObject({ code: 'invalid_callback_url', param: 'schedule.callback_url' });
    const http = await refusal('http://203.0.113.10/', strict, 'schedule.callback_url');
    expect(http).toMatchObject({ param: 'schedule.callback_url' });
  });
});

function lookupOnce(guard: TargetGuard, host: string, all: boolean): Promise<{ err: Error | null; result: unknown }> {
  return new Promise((resolve) => {
    guard.lookup()(host, { all }, (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) =>
      resolve({ err, result: all ? address : { address, family } }),
    );
  });
}

describe('TargetGuard#lookup (the addresses a connection is made to)', () => {
  it('fails the connection when the name resolves to a forbidden address', async () => {
    for (const all of [true, false]) {
      const { err } = await lookupOnce(strict, 'localhost', all);
      expect(err).toBeInstanceOf(ForbiddenTargetError);
      expect(err!.message).toMatch(/'localhost' resolves to .*loopback/);
    }
  });

  it('passes the resolved addresses through when private targets are allowed', async () => {
    const many = await lookupOnce(dev, 'localhost', true);
    expect(many.err).toBeNull();
    expect((many.result as LookupAddress[]).every((a) => isForbidden(a.address))).toBe(true);
    const one = await lookupOnce(dev, 'localhost', false);
    expect(one.result).toMatchObject({ address: expect.any(String), family: expect.any(Number) });
  });

  it('refuses at connection time a name whose answer changed to a forbidden address after the check passed (rebinding)', async () => {
    dns.set('rebind.example.test', 'A', [PUBLIC_V4]);
    await expect(strict.check('https://rebind.example.test/hook')).resolves.toBeUndefined();
    dns.set('rebind.example.test', 'A', ['192.0.2.80']);
    for (const all of [true, false]) {
      const { err } = await lookupOnce(strict, 'rebind.example.test', all);
      expect(err).toBeInstanceOf(ForbiddenTargetError);
      expect(err!.message).toContain('192.0.2.80');
    }
  });

  it('refuses when any address of the answer is forbidden, even if the first is public', async () => {
    dns.set('mixed.example.test', 'A', [PUBLIC_V4, '10.1.2.3']);
    const { err } = await lookupOnce(strict, 'mixed.example.test', false);
    expect(err).toBeInstanceOf(ForbiddenTargetError);
  });
});
