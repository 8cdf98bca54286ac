/**
 * The supervisor's side of a run's proxy (issue 23, item 4): the request that sets it, the credential-free forwarder
 * that chains to a real proxy requiring Basic authentication, and the check that blames the proxy, not the site.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EgressProxy } from '../../templates/sandbox/supervisor/egress-proxy.js';
import { BadRequest, parseProxyRequest } from '../../templates/sandbox/supervisor/request-validation.js';
import { startAuthProxy, type AuthProxy } from '../fixtures/auth-proxy.js';
import { closedPort, servePages } from '../engine/harness.js';

const PASSWORD = 'Sup-prx-pw_6Rt1';

let upstream: AuthProxy;
let site: Awaited<ReturnType<typeof servePages>>;
beforeAll(async () => {
  upstream = await startAuthProxy({ username: 'runner', password: PASSWORD });
  site = await servePages((req, res) => res.writeHead(200).end(`served ${req.url} with ${req.headers['proxy-authorization'] === undefined ? 'no' : 'a'} proxy header`));
});
afterAll(async () => {
  await site?.close();
  await upstream?.close();
});

/** A GET through the forwarder as task code sends it: the absolute URL, and no credentials. */
function getThrough(forwarder: string, url: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(forwarder);
  return new Promise((resolve, reject) => {
    request({ host: hostname, port, path: url, headers: { host: new URL(url).host } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

describe('POST /proxy bodies', () => {
  it('takes a server without credentials, the credentials apart, and a label', () => {
    expect(parseProxyRequest({ server: 'http://127.0.0.1:3128', username: 'u', password: 'p', label: 'the proxy' })).toEqual({
      server: 'http://127.0.0.1:3128',
      username: 'u',
      password: 'p',
      label: 'the proxy',
    });
  });

  it.each([
    [{ server: 'http://u:p@127.0.0.1:3128', label: 'x' }, 'without credentials'],
    [{ server: 'ftp://127.0.0.1:21', label: 'x' }, 'http, https or socks5'],
    [{ server: 'http://127.0.0.1:3128', password: 'p', label: 'x' }, 'password comes only with username'],
    [{ server: 'http://127.0.0.1:3128' }, 'label'],
  ])('refuses %j', (body, message) => {
    expect(() => parseProxyRequest(body)).toThrow(BadRequest);
    expect(() => parseProxyRequest(body)).toThrow(message);
  });
});

describe('EgressProxy', () => {
  it('forwards without credentials to the proxy with them, and gives code only the forwarder', async () => {
    const egress = new EgressProxy();
    try {
      const local = await egress.start({ server: upstream.url, username: 'runner', password: PASSWORD, label: 'the proxy' });
      expect(local).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(egress.environment()).toEqual({
        HTTP_PROXY: local,
        http_proxy: local,
        HTTPS_PROXY: local,
        https_proxy: local,
        ALL_PROXY: local,
        all_proxy: local,
      });
      const from = upstream.log.length;
      expect(await getThrough(local, `${site.url}/page`)).toEqual({ status: 200, body: 'served /page with no proxy header' });
      expect(upstream.log.slice(from)).toEqual([{ method: 'GET', target: `${site.url}/page`, authorized: true }]);
      expect(await egress.diagnose(`${site.url}/page`)).toBeNull();
    } finally {
      await egress.close();
    }
  });

  it('blames the proxy for refused credentials and for being down, naming it by its label', async () => {
    const wrong = new EgressProxy();
    const down = new EgressProxy();
    const port = await closedPort();
    try {
      await wrong.start({ server: upstream.url, username: 'runner', password: 'not-it', label: 'the proxy X' });
      expect(await wrong.diagnose(`${site.url}/page`)).toEqual({ kind: 'proxy_failed', message: 'the proxy X refused the run’s credentials (HTTP 407 Proxy Authentication Required)' });
      await down.start({ server: `http://127.0.0.1:${port}`, label: 'the proxy Y' });
      expect(await down.diagnose(`${site.url}/page`)).toEqual({ kind: 'proxy_failed', message: 'the proxy Y refused the connection (ECONNREFUSED): it is down, or not listening there' });
    } finally {
      await wrong.close();
      await down.close();
    }
  });

  it('sets nothing before a proxy is set', async () => {
    const egress = new EgressProxy();
    expect(egress.environment()).toEqual({});
    expect(egress.localUrl).toBeNull();
    expect(await egress.diagnose('http://127.0.0.1:1/')).toBeNull();
  });
});
