import { request as httpRequest, type ClientRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect } from 'node:net';
import type { PageProblem, ProxyRequest } from '../../../src/sandbox/protocol.js';

/** How long the check of a proxy after a failed page load waits for it. */
const DIAGNOSIS_TIMEOUT_MS = 10_000;
/** Environment variables programs read a proxy from; both spellings, since tools disagree on which they read. */
const PROXY_VARIABLES = ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY'];

interface ProxyChainServer {
  port: number;
  listen(): Promise<void>;
  close(closeConnections: boolean): Promise<void>;
}

/**
 * The run's egress proxy (issue 23, item 4) as the sandbox uses it: a forwarder on the sandbox's loopback, without
 * credentials, that chains every request to the proxy with them (proxy-chain). Chromium and task code are pointed at
 * the forwarder, so the proxy's password stays in this process: not in the browser's arguments or the trace, not in
 * task code's environment, and not in anything the model reads.
 */
export class EgressProxy {
  private server: ProxyChainServer | null = null;
  private proxy: ProxyRequest | null = null;

  get isSet(): boolean {
    return this.proxy !== null;
  }

  /** `http://127.0.0.1:<port>` of the forwarder, once set. */
  get localUrl(): string | null {
    return this.server === null ? null : `http://127.0.0.1:${this.server.port}`;
  }

  async start(proxy: ProxyRequest): Promise<string> {
    const { Server } = await import('proxy-chain');
    const upstream = new URL(proxy.server);
    if (proxy.username !== undefined) {
      upstream.username = encodeURIComponent(proxy.username);
      upstream.password = encodeURIComponent(proxy.password ?? '');
    }
    const upstreamProxyUrl = upstream.href.replace(/\/$/, '');
    const server = new Server({ port: 0, host: '127.0.0.1', verbose: false, prepareRequestFunction: () => ({ upstreamProxyUrl }) });
    await server.listen();
    this.server = server;
    this.proxy = proxy;
    return `http://127.0.0.1:${server.port}`;
  }

  /** The variables task code gets, pointing at the forwarder; none before a proxy is set. */
  environment(): Record<string, string> {
    const local = this.localUrl;
    if (local === null) return {};
    return Object.fromEntries(PROXY_VARIABLES.flatMap((name) => [[name, local], [name.toLowerCase(), local]]));
  }

  /**
   * After a page failed to load through the proxy: whether the proxy is to blame. It is asked, with the run's
   * credentials, to open a tunnel to the page's host (a SOCKS proxy only to accept a connection); a proxy that cannot
   * be reached, refuses the credentials or refuses the target is the problem, named without its credentials. Null
   * when the proxy would carry the request, and the site is what failed.
   */
  async diagnose(target: string): Promise<PageProblem | null> {
    const proxy = this.proxy;
    if (proxy === null) return null;
    let host: string;
    let port: number;
    try {
      const url = new URL(target);
      host = url.hostname;
      port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
    } catch {
      return null;
    }
    const failure = await probe(proxy, host, port);
    return failure === null ? null : { kind: 'proxy_failed', message: `${proxy.label} ${failure}` };
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    await server?.close(true).catch(() => undefined);
  }
}

/** What is wrong with the proxy, as the end of a sentence that starts with its name; null when nothing is. */
function probe(proxy: ProxyRequest, host: string, port: number): Promise<string | null> {
  const server = new URL(proxy.server);
  const proxyHost = server.hostname.replace(/^\[|\]$/g, '');
  const proxyPort = server.port !== '' ? Number(server.port) : server.protocol === 'https:' ? 443 : 80;
  if (server.protocol === 'socks5:') return reachable(proxyHost, proxyPort);
  return new Promise((resolve) => {
    const authority = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
    const headers: Record<string, string> = { host: authority };
    if (proxy.username !== undefined) headers['proxy-authorization'] = `Basic ${Buffer.from(`${proxy.username}:${proxy.password ?? ''}`).toString('base64')}`;
    const options = { host: proxyHost, port: proxyPort, method: 'CONNECT', path: authority, headers, timeout: DIAGNOSIS_TIMEOUT_MS };
    const req: ClientRequest = server.protocol === 'https:' ? httpsRequest(options) : httpRequest(options);
    req.once('connect', (res, socket) => {
      socket.destroy();
      const status = res.statusCode ?? 0;
      if (status === 200) resolve(null);
      else if (status === 407) resolve('refused the run’s credentials (HTTP 407 Proxy Authentication Required)');
      else resolve(`refused to connect to ${authority} (HTTP ${status})`);
    });
    req.once('response', (res) => {
      res.resume();
      resolve(`refused to connect to ${authority} (HTTP ${res.statusCode ?? 0})`);
    });
    req.once('timeout', () => {
      req.destroy();
      resolve(`did not answer within ${DIAGNOSIS_TIMEOUT_MS / 1000} s`);
    });
    req.once('error', (error: NodeJS.ErrnoException) => resolve(unreachable(error)));
    req.end();
  });
}

function reachable(host: string, port: number): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: DIAGNOSIS_TIMEOUT_MS });
    socket.once('connect', () => {
      socket.destroy();
      resolve(null);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(`did not answer within ${DIAGNOSIS_TIMEOUT_MS / 1000} s`);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(unreachable(error)));
  });
}

function unreachable(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'refused the connection (ECONNREFUSED): it is down, or not listening there';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `could not be found (${error.code})`;
    default:
      return `could not be reached (${error.code ?? error.message})`;
  }
}
