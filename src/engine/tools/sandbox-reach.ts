import { ForbiddenAddresses } from '../../network/forbidden-addresses.js';
import type { BrowserResult } from '../../sandbox/protocol.js';

/** The special-purpose ranges alone: a sandbox's firewall refuses them whatever the daemon's host's own networks are. */
const SPECIAL_PURPOSE = new ForbiddenAddresses();

/** What a docker sandbox's browser says when it could not connect at all (refused, unreachable, timed out). */
const CONNECTION_FAILURES: ReadonlySet<string> = new Set(['connection_refused', 'connection_failed']);

/**
 * A browser result as the model and the run's failure_detail should read it when the sandbox cannot reach the
 * daemon's host (`Sandbox.reachesHost` false: a docker sandbox without a proxy): a failed connection to a loopback
 * or private address, or to `localhost`, is not a site that is down but a page the sandbox can never reach, and the
 * problem says so and what to do. Any other result is answered unchanged.
 */
export function withSandboxReach(result: BrowserResult, target: string | null): BrowserResult {
  const problem = result.problem;
  if (problem === null || !CONNECTION_FAILURES.has(problem.kind)) return result;
  const why = unreachableBecause(target ?? result.url);
  if (why === null) return result;
  return { ...result, problem: { kind: 'host_unreachable', message: `${why} (the browser said: ${problem.message})` } };
}

/** Why a docker sandbox cannot reach the URL's host, or null when its host is not one it is kept from. */
export function unreachableBecause(url: string | null): string | null {
  if (url === null) return null;
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return null;
  }
  const advice =
    'to try pages served on this machine, run the daemon with the local sandbox driver (sandbox.driver "local", ' +
    'ERRAND_SANDBOX_DRIVER=local), or serve them at an address the internet reaches';
  if (host === 'localhost' || host.endsWith('.localhost')) return `the sandbox is a Docker container, where ${host} is the container itself, not the daemon's host: ${advice}`;
  const refusal = SPECIAL_PURPOSE.refusal(host);
  if (refusal === null || refusal.name === 'not an IP address') return null;
  if (refusal.name === 'loopback') return `the sandbox is a Docker container, where ${host} (loopback) is the container itself, not the daemon's host: ${advice}`;
  return `the sandbox is a Docker container, and its firewall refuses ${host} (${refusal.name}, ${refusal.range}), so it cannot reach the daemon's host or its networks: ${advice}`;
}
