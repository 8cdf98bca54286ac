/**
 * The base of the absolute links the daemon hands out (`poll_url`, signed artifact links): `public_url` when it is
 * configured, otherwise the address the daemon listens on, which is known only once it listens (`--port 0`).
 */
export class PublicAddress {
  private url: string;

  constructor(private readonly configured: string | null, host: string, port: number) {
    this.url = configured ?? `http://${hostForUrl(host)}:${port}`;
  }

  get(): string {
    return this.url;
  }

  /** The port the daemon actually listens on; it changes nothing when `public_url` is configured. */
  listening(host: string, port: number): string {
    const local = `http://${hostForUrl(host)}:${port}`;
    if (this.configured === null) this.url = local;
    return local;
  }
}

/** A host as it goes into a URL: the wildcard addresses become loopback, IPv6 literals get brackets. */
export function hostForUrl(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}
