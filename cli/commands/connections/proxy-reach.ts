import type { Connection } from '../../api.js';
import type { CliContext } from '../../context.js';

/**
 * Warns (on stderr) when a proxy connection is on the loopback of the daemon's host while its sandboxes are docker
 * containers: their 127.0.0.1 is the container itself, so every run through it would fail. The daemon accepts such a
 * proxy in dev mode, where the local driver reaches it; the status says which driver runs the sandboxes.
 */
export async function warnOfUnreachableProxy(ctx: CliContext, connection: Connection): Promise<void> {
  if (connection.type !== 'proxy' || connection.url === null || !isLoopbackHost(connection.url)) return;
  const status = await ctx.api().status();
  if (status.sandbox.driver !== 'docker') return;
  ctx.out.warn(
    `${connection.url} is the loopback of the daemon's host, which docker sandboxes cannot reach (127.0.0.1 in a sandbox is the container ` +
      "itself): runs through this proxy will fail. Give the proxy the host's address on the sandbox network or its LAN, or run the daemon " +
      'with the local sandbox driver (ERRAND_SANDBOX_DRIVER=local).',
  );
}

function isLoopbackHost(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return false;
  }
  return host === 'localhost' || host.endsWith('.localhost') || /^127\./.test(host) || host === '::1';
}
