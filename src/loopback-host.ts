/**
 * Whether a URL's host names this machine's loopback interface, judged from the name alone (nothing is resolved):
 * `localhost`, 127.0.0.0/8, or [::1]. Traffic there never leaves the host, so what would be unsafe on a network
 * (http redirect URIs, a relay login without TLS) may be allowed there.
 */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}
