/**
 * The URL guard of a running daemon without --dev, from the outside (issue 21, items 5 and 8): callback and MCP
 * URLs in the ranges the sandbox firewall always dropped are refused with a 400 naming the member, and host names
 * are resolved by the servers of `dns.servers` (a DNS server on loopback here, which records what it was asked).
 * Nothing is ever connected to.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, OFFLINE_ENGINE_ENV } from '../api/harness.js';
import { LoopbackDns } from '../fixtures/dns-server.js';
import { startDaemon, type TestDaemon } from '../fixtures/test-daemon.js';

let dns: LoopbackDns;
let d: TestDaemon;

beforeAll(async () => {
  dns = await LoopbackDns.start();
  d = await startDaemon({ dev: false, env: { ...OFFLINE_ENGINE_ENV, ERRAND_DNS_SERVERS: dns.server } });
});

afterAll(async () => {
  await d?.cleanup();
  await dns?.close();
});

async function runCount(): Promise<number> {
  return (await d.api('GET', '/v1/runs?limit=200')).body.data.length;
}

const NEWLY_COVERED = [
  ['TEST-NET-1', 'https://192.0.2.10/hook', '192.0.2.0/24'],
  ['TEST-NET-2', 'https://198.51.100.10/hook', '198.51.100.0/24'],
  ['TEST-NET-3', 'https://203.0.113.10/hook', '203.0.113.0/24'],
  ['the 6to4 relay anycast', 'https://192.88.99.10/hook', '192.88.99.0/24'],
  ['IPv6 documentation', 'https://[2001:db8::10]/hook', '2001:db8::/32'],
  ['a Teredo address carrying TEST-NET-1', 'https://[2001:0:4136:e378:8000:63bf:3fff:fdf5]/hook', '2001::/23'],
] as const;

describe('POST /v1/runs without --dev', () => {
  it.each(NEWLY_COVERED)('answers 400 invalid_callback_url for a callback_url in %s, and creates no run', async (_what, url, range) => {
    const before = await runCount();
    const res = await d.api('POST', '/v1/runs', { prompt: 'Call me back', callback_url: url });
    expectError(res, 400, { type: 'invalid_request_error', code: 'invalid_callback_url', param: 'callback_url' });
    expect(res.body.error.message).toContain(range);
    expect(await runCount()).toBe(before);
  });

  it('resolves the callback host through dns.servers, a trailing dot and capitals included, and refuses its TEST-NET answer', async () => {
    dns.set('hooks.example.test', 'A', ['203.0.113.9']);
    const asked = await dns.questionsDuring(async () => {
      const res = await d.api('POST', '/v1/runs', { prompt: 'Call me back', callback_url: 'https://Hooks.Example.TEST./hook' });
      expectError(res, 400, { type: 'invalid_request_error', code: 'invalid_callback_url', param: 'callback_url' });
      expect(res.body.error.message).toContain('resolves to 203.0.113.9');
    });
    expect(asked).toContain('A hooks.example.test');
  });

  it('refuses LOCALHOST. as loopback without asking any server', async () => {
    const asked = await dns.questionsDuring(async () => {
      const res = await d.api('POST', '/v1/runs', { prompt: 'Call me back', callback_url: 'https://LOCALHOST./hook' });
      expectError(res, 400, { type: 'invalid_request_error', code: 'invalid_callback_url', param: 'callback_url' });
      expect(res.body.error.message).toMatch(/127\.0\.0\.1, which is not a public address \(127\.0\.0\.0\/8: loopback\)/);
    });
    expect(asked).toEqual([]);
  });
});

describe('POST /v1/jobs and /v1/connections without --dev', () => {
  it("refuses a job schedule's callback_url in TEST-NET-2, naming the member", async () => {
    const project = (await d.api('GET', '/v1/projects')).body.data[0].id as string;
    const res = await d.api('POST', '/v1/jobs', {
      project_id: project,
      name: 'nightly',
      prompt: 'Check',
      schedule: { cron: '0 3 * * *', timezone: 'UTC', callback_url: 'https://198.51.100.20/hook' },
    });
    expectError(res, 400, { type: 'invalid_request_error', code: 'invalid_callback_url', param: 'schedule.callback_url' });
  });

  it.each([
    ['TEST-NET-3', 'https://203.0.113.30/mcp'],
    ['IPv6 documentation', 'https://[2001:db8::30]/mcp'],
  ])('refuses an MCP connection whose url is in %s', async (_what, url) => {
    const res = await d.api('POST', '/v1/connections', { name: `mcp-${_what.replace(/\W+/g, '-').toLowerCase()}`, type: 'mcp', url });
    expectError(res, 400, { type: 'invalid_request_error', code: 'invalid_connection_url', param: 'url' });
  });
});
