import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Metrics } from './metrics.js';

/**
 * `GET /metrics` in the Prometheus text format, on a listener of its own (`metrics.host`, `metrics.port`), apart from
 * the API: it needs no API key, so it is bound to loopback unless the operator says otherwise, and a scraper never
 * competes with API clients for the API's rate limits.
 */
export class MetricsServer {
  private readonly server: Server;

  constructor(
    private readonly metrics: Metrics,
    private readonly logger: Logger,
  ) {
    this.server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      if (path !== '/metrics') {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: the metrics are at /metrics\n');
        return;
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('method not allowed\n');
        return;
      }
      this.metrics.scrape().then(
        (text) => res.writeHead(200, { 'content-type': this.metrics.contentType }).end(req.method === 'HEAD' ? undefined : text),
        (err: unknown) => {
          this.logger.error({ err }, 'could not collect the metrics');
          res.writeHead(500, { 'content-type': 'text/plain' }).end('could not collect the metrics\n');
        },
      );
    });
  }

  /** Listens; resolves to the address scrapers use. */
  async listen(host: string, port: number): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    const address = this.server.address() as AddressInfo;
    const url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}/metrics`;
    this.logger.info({ url }, 'metrics listening');
    return url;
  }

  close(): Promise<void> {
    if (!this.server.listening) return Promise.resolve();
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
