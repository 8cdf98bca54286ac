import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedFetch } from '../../src/connections/guarded-fetch.js';
import { ForbiddenTargetError } from '../../src/network/target-guard.js';
import { LoopbackDns } from '../fixtures/dns-server.js';
import { testGuard } from '../fixtures/test-guard.js';

let server: ReturnType<typeof createServer>;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/redirect') return void res.writeHead(302, { location: 'http://127.0.0.1:9/elsewhere' }).end();
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json', 'x-seen': req.headers['x-key'] ?? '' }).end(JSON.stringify({ method: req.method, body })));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('guardedFetch', () => {
  it('sends the method, headers and body, and streams the answer back as a Response', async () => {
    const statuses: number[] = [];
    const res = await guardedFetch({ guard: testGuard({ allowPrivate: true }), onStatus: (s) => statuses.push(s) })(`${base}/x`, { method: 'POST', headers: { 'x-key': 'k1' }, body: 'hello' });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-seen')).toBe('k1');
    expect(await res.json()).toEqual({ method: 'POST', body: 'hello' });
    expect(statuses).toEqual([200]);
  });

  it('does not follow redirects', async () => {
    const res = await guardedFetch({ guard: testGuard({ allowPrivate: true }) })(`${base}/redirect`);
    expect(res.status).toBe(302);
  });

  it('refuses a loopback target outside dev mode before connecting', async () => {
    await expect(guardedFetch({ guard: testGuard({ allowPrivate: false }) })(`${base}/x`)).rejects.toBeInstanceOf(ForbiddenTargetError);
    await expect(guardedFetch({ guard: testGuard({ allowPrivate: false }) })(base.replace('http:', 'https:'))).rejects.toThrow(/loopback, private or link-local/);
  });

  it('ends a request when its signal fires', async () => {
    const controller = new AbortController();
    controller.abort(new Error('run stopped'));
    await expect(guardedFetch({ guard: testGuard({ allowPrivate: true }), signal: controller.signal })(`${base}/x`)).rejects.toThrow('run stopped');
  });

  it('resolves through the configured servers and refuses a forbidden answer before dialling it', async () => {
    const dns = await LoopbackDns.start();
    try {
      dns.set('mcp.example.test', 'A', ['127.0.0.1']);
      let connections = 0;
      const count = (): void => void (connections += 1);
      server.on('connection', count);
      const refused = guardedFetch({ guard: testGuard({ allowPrivate: false, dnsServer: dns.server }) })(`https://mcp.example.test:${new URL(base).port}/x`);
      await expect(refused).rejects.toBeInstanceOf(ForbiddenTargetError);
      expect(dns.questions.map((q) => q.name)).toContain('mcp.example.test');
      expect(connections).toBe(0);
      server.off('connection', count);
    } finally {
      await dns.close();
    }
  });
});
