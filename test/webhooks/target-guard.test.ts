import { describe, expect, it } from 'vitest';
import type { LookupAddress } from 'node:dns';
import { InvalidRequestError } from '../../src/errors.js';
import { checkWebhookTarget, FORBIDDEN_IPV4_RANGES, ForbiddenTargetError, isForbiddenAddress, pinnedLookup } from '../../src/webhooks/target-guard.js';

const strict = { allowPrivate: false };
const dev = { allowPrivate: true };

describe('isForbiddenAddress', () => {
  it.each([
    '127.0.0.1', '127.255.0.9', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1',
    '0.0.0.0', '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'fe80::1%eth0', 'fc00::1', 'fd12:3456::1', 'ff02::1',
    '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:a9fe:a9fe', '64:ff9b::7f00:1', '::127.0.0.1', '[::1]', 'not-an-address',
  ])('forbids %s', (ip) => {
    expect(isForbiddenAddress(ip)).toBe(true);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '203.0.113.10', '2606:4700:4700::1111', '2001:db8::1', '::ffff:8.8.8.8'])('allows %s', (ip) => {
    expect(isForbiddenAddress(ip)).toBe(false);
  });
});

/** The two 16-bit groups of a dotted quad, as hex. */
function hexGroups(v4: string): [string, string] {
  const [a, b, c, d] = v4.split('.').map(Number) as [number, number, number, number];
  return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
}

/** An address inside each forbidden IPv4 range: its first, one inside, and its last. */
function samplesOf(net: string, prefix: number): string[] {
  const base = net.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);
  const size = 2 ** (32 - prefix);
  const quad = (n: number) => [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.');
  return [quad(base), quad(base + Math.min(1, size - 1)), quad(base + size - 1)];
}

describe('isForbiddenAddress on IPv6 forms that carry an IPv4 address (#10)', () => {
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
    FORBIDDEN_IPV4_RANGES.flatMap(([net, prefix]) => samplesOf(net, prefix).map((v4) => [form, `${net}/${prefix}`, v4, wrap(v4)] as const)),
  );

  it.each(cases)('forbids the %s form of %s (%s as %s)', (_form, _range, _v4, ip) => {
    expect(isForbiddenAddress(ip)).toBe(true);
  });

  it.each([
    ['6to4 of 8.8.8.8', '2002:808:808::1'],
    ['Teredo with a public server and client', '2001:0:4136:e378:8000:63bf:f7f7:f7f7'],
    ['NAT64 of 1.1.1.1', '64:ff9b::1.1.1.1'],
    ['NAT64 of 8.8.8.8 written out', '64:ff9b:0:0:0:0:808:808'],
  ])('allows %s (%s)', (_what, ip) => {
    expect(isForbiddenAddress(ip)).toBe(false);
  });

  it('refuses a callback URL whose host is a 6to4 address wrapping 127.0.0.1', async () => {
    expect((await refusal('https://[2002:7f00:1::]/x')).message).toMatch(/loopback, private or link-local/);
  });

  it('treats an unparsable IPv6 literal as forbidden', () => {
    expect(isForbiddenAddress('2002:7f00:1::1::2')).toBe(true);
  });
});

async function refusal(url: string, policy = strict): Promise<InvalidRequestError> {
  const err = await checkWebhookTarget(url, policy).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InvalidRequestError);
  return err as InvalidRequestError;
}

describe('checkWebhookTarget', () => {
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
  });

  it('refuses what is not a URL, other schemes, and credentials in the URL', async () => {
    expect((await refusal('not a url')).message).toMatch(/not an absolute URL/);
    expect((await refusal('ftp://203.0.113.10/x', dev)).message).toMatch(/http or https/);
    expect((await refusal('https://user:pw@203.0.113.10/x')).message).toMatch(/credentials/);
  });

  it('accepts a public https address, and loopback http when private targets are allowed', async () => {
    await expect(checkWebhookTarget('https://203.0.113.10/hook', strict)).resolves.toBeUndefined();
    await expect(checkWebhookTarget('http://127.0.0.1:9/hook', dev)).resolves.toBeUndefined();
    await expect(checkWebhookTarget('http://localhost:9/hook', dev)).resolves.toBeUndefined();
  });
});

function lookupOnce(policy: { allowPrivate: boolean }, host: string, all: boolean): Promise<{ err: Error | null; result: unknown }> {
  return new Promise((resolve) => {
    pinnedLookup(policy)(host, { all }, (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) =>
      resolve({ err, result: all ? address : { address, family } }),
    );
  });
}

describe('pinnedLookup (the address a delivery connects to)', () => {
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
    expect((many.result as LookupAddress[]).every((a) => isForbiddenAddress(a.address))).toBe(true);
    const one = await lookupOnce(dev, 'localhost', false);
    expect(one.result).toMatchObject({ address: expect.any(String), family: expect.any(Number) });
  });
});

describe('checkWebhookTarget for a job schedule', () => {
  it('names the member it was given', async () => {
    const err = await checkWebhookTarget('https://localhost/hook', strict, 'schedule.callback_url').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'invalid_callback_url', param: 'schedule.callback_url' });
    const http = await checkWebhookTarget('http://203.0.113.10/', strict, 'schedule.callback_url').catch((e: unknown) => e);
    expect(http).toMatchObject({ param: 'schedule.callback_url' });
  });
});
