import { InvalidRequestError } from '../../errors.js';

/** The schemes a proxy may be reached by: what proxy-chain, the sandbox's forwarder, can chain to. */
export const PROXY_SCHEMES = ['http', 'https', 'socks5'] as const;
export type ProxyScheme = (typeof PROXY_SCHEMES)[number];

const DEFAULT_PORTS: Record<ProxyScheme, number> = { http: 80, https: 443, socks5: 1080 };
/** The port of `scheme://[userinfo@]host:port`, as written (digits only); the host may be an [IPv6] literal. */
const PORT_IN_URL = /^[a-z][a-z0-9+.-]*:\/\/(?:[^/?#]*@)?(?:\[[^\]]*\]|[^:/?#[\]]*):(\d+)(?:[/?#]|$)/i;

/** A proxy as a run uses it: where it is, and the credentials the sandbox's supervisor answers its challenge with. */
export interface ProxyEndpoint {
  /** `scheme://host:port`, never with credentials: what is stored, shown and named in a failure_detail. */
  url: string;
  scheme: ProxyScheme;
  /** As the URL spells it (an IPv6 address without brackets). */
  host: string;
  port: number;
  username: string | null;
  password: string | null;
}

/**
 * Parses a proxy URL (`http://`, `https://` or `socks5://`, `[user:password@]host[:port]`, nothing after the port),
 * refusing any other form with a 400 naming `param`. Credentials in the URL's userinfo are percent-decoded; `secret`
 * (`user:password`, the same thing given apart, as `--secret-stdin` does) may carry them instead, never both. The
 * answer's `url` has no credentials and an explicit port.
 */
export function parseProxyUrl(raw: string, param: string, secret: string | null = null): ProxyEndpoint {
  // Before URL parsing, which takes port 0 and calls a port above 65535 an invalid URL without saying why.
  const written = PORT_IN_URL.exec(raw)?.[1];
  if (written !== undefined && !(Number(written) >= 1 && Number(written) <= 65535)) {
    throw invalid(`${param} has port ${written.length > 12 ? `${written.slice(0, 12)}...` : written}: a proxy's port is from 1 to 65535`, param);
  }
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw invalid(`${param} must be an absolute proxy URL such as http://proxy.example:3128`, param);
  }
  const scheme = parsed.protocol.slice(0, -1);
  if (!isProxyScheme(scheme)) throw invalid(`${param} must use ${PROXY_SCHEMES.join(', ')}, not ${parsed.protocol}`, param);
  if (parsed.hostname === '') throw invalid(`${param} names no host`, param);
  if ((parsed.pathname !== '' && parsed.pathname !== '/') || parsed.search !== '' || parsed.hash !== '') {
    throw invalid(`${param} must be scheme://host:port, with no path, query or fragment`, param);
  }
  const inUrl = parsed.username !== '' || parsed.password !== '';
  if (inUrl && secret !== null) throw invalid(`give the proxy's credentials either in ${param} or in secret, not both`, param);
  const credentials = inUrl ? { username: decode(parsed.username, param), password: decode(parsed.password, param) } : secret === null ? null : splitSecret(secret);
  const port = parsed.port === '' ? DEFAULT_PORTS[scheme] : Number(parsed.port);
  return {
    url: `${scheme}://${parsed.host.replace(/:\d+$/, '')}:${port}`,
    scheme,
    host: parsed.hostname.replace(/^\[|\]$/g, ''),
    port,
    username: credentials?.username ?? null,
    password: credentials?.password ?? null,
  };
}

/** `user:password` as a proxy connection's secret holds it; the password may contain colons, the user may not. */
export function splitSecret(secret: string): { username: string; password: string } {
  const colon = secret.indexOf(':');
  return colon === -1 ? { username: secret, password: '' } : { username: secret.slice(0, colon), password: secret.slice(colon + 1) };
}

function isProxyScheme(scheme: string): scheme is ProxyScheme {
  return (PROXY_SCHEMES as readonly string[]).includes(scheme);
}

function decode(part: string, param: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw invalid(`${param} has credentials that are not valid percent-encoding`, param);
  }
}

function invalid(message: string, param: string): InvalidRequestError {
  return new InvalidRequestError('invalid_proxy_url', message, { param });
}
