/**
 * The one resolver of the daemon's lookups (issue 21, item 8), against a DNS server on loopback that records every
 * question: with `dns.servers` set, nothing else is asked, not even /etc/hosts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { HostResolver, readDnsServers, reverseName } from '../../src/network/host-resolver.js';
import { LoopbackDns } from '../fixtures/dns-server.js';

let dns: LoopbackDns;
let resolver: HostResolver;

beforeAll(async () => {
  dns = await LoopbackDns.start();
  resolver = new HostResolver([dns.server]);
});

afterAll(async () => {
  await dns?.close();
});

describe('HostResolver#addresses', () => {
  it('asks the configured servers for A and AAAA, and answers both families', async () => {
    dns.set('both.example.test', 'A', ['93.184.215.14']);
    dns.set('both.example.test', 'AAAA', ['2606:2800:21f:cb07:6820:80da:af6b:8b2c']);
    expect(await resolver.addresses('both.example.test')).toEqual([
      { address: '93.184.215.14', family: 4 },
      { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
    ]);
  });

  it('reads a trailing dot and capitals as the same name, asking the configured servers', async () => {
    dns.set('dot.example.test', 'A', ['93.184.215.14']);
    const asked = await dns.questionsDuring(async () => {
      expect(await resolver.addresses('DOT.Example.test.')).toEqual([{ address: '93.184.215.14', family: 4 }]);
    });
    expect(asked).toEqual(expect.arrayContaining(['A dot.example.test', 'AAAA dot.example.test']));
  });

  it('answers localhost and its names as loopback, and invalid as nonexistent, asking nobody (RFC 6761)', async () => {
    const asked = await dns.questionsDuring(async () => {
      for (const name of ['localhost', 'LOCALHOST.', 'localhost..', 'db.localhost']) {
        expect(await resolver.addresses(name), name).toEqual([{ address: '127.0.0.1', family: 4 }, { address: '::1', family: 6 }]);
      }
      await expect(resolver.addresses('x.invalid.')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    });
    expect(asked).toEqual([]);
  });

  it('answers an IP literal as itself, and fails with ENOTFOUND for a name that does not exist', async () => {
    expect(await resolver.addresses('[2001:db8::1]')).toEqual([{ address: '2001:db8::1', family: 6 }]);
    await expect(resolver.addresses('nowhere.example.test')).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });
});

describe('HostResolver#reverse', () => {
  it('asks the configured servers for the PTR record, never /etc/hosts', async () => {
    dns.set('1.0.0.127.in-addr.arpa', 'PTR', ['client.example.test']);
    const asked = await dns.questionsDuring(async () => {
      expect(await resolver.reverse('127.0.0.1')).toEqual(['client.example.test']);
    });
    expect(asked).toEqual(['PTR 1.0.0.127.in-addr.arpa']);
  });

  it('names addresses as RFC 3596 does', () => {
    expect(reverseName('192.0.2.5')).toBe('5.2.0.192.in-addr.arpa');
    expect(reverseName('::ffff:192.0.2.5')).toBe('5.2.0.192.in-addr.arpa');
    expect(reverseName('2001:db8::567:89ab')).toBe('b.a.9.8.7.6.5.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa');
    expect(reverseName('nonsense')).toBeNull();
  });
});

describe('readDnsServers', () => {
  it('takes IP addresses with optional ports, and refuses anything else naming dns.servers', () => {
    expect(readDnsServers('127.0.0.1:5353, [::1]:53, ::1')).toEqual(['127.0.0.1:5353', '[::1]:53', '::1']);
    expect(readDnsServers(null)).toEqual([]);
    expect(() => readDnsServers('dns.example.test')).toThrow(ConfigError);
    expect(() => readDnsServers('127.0.0.1:70000')).toThrow(/dns.servers/);
  });
});
