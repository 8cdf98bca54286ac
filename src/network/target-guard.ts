import type { LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import type { Config } from '../config/schema.js';
import { InvalidRequestError } from '../errors.js';
import type { AddressRefusal, ForbiddenAddresses } from './forbidden-addresses.js';
import type { HostResolver } from './host-resolver.js';

export interface TargetGuardOptions {
  /** `dev` or `webhooks.allow_private_targets` (`allowsPrivateTargets`): http and non-public addresses are allowed. */
  allowPrivate: boolean;
  /** Where host names are resolved, when checked and again when connecting. */
  resolver: Pick<HostResolver, 'addresses'>;
  /** The addresses to refuse, with the host's networks as they are now (`HostNetworks#forbidden`). */
  forbidden: () => ForbiddenAddresses;
}

/** Whether `dev` or `webhooks.allow_private_targets` lets callbacks reach http and non-public addresses. */
export function allowsPrivateTargets(config: Pick<Config, 'dev' | 'webhooks.allow_private_targets'>): boolean {
  return config.dev || config['webhooks.allow_private_targets'];
}

export class ForbiddenTargetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ForbiddenTargetError';
  }
}

/**
 * The guard of every URL the daemon connects to for a caller: run, job and inbox callbacks, organisation webhook
 * endpoints, MCP connection URLs, proxy connections' hosts. A target must be https and every address its host resolves to must be public:
 * outside the special-purpose ranges (`forbidden-ranges.ts`, shared with the sandbox firewall) and outside the host's
 * own addresses and connected networks. An attacker's DNS may answer with several addresses, so all are checked;
 * and since it may answer differently by the time of the connection (rebinding), the connection resolves through
 * `lookup`, which checks again the addresses it hands to the socket. `dev` and `webhooks.allow_private_targets`
 * let http and non-public targets through.
 */
export class TargetGuard {
  constructor(private readonly o: TargetGuardOptions) {}

  /**
   * Refuses a target a caller gave with a 400 naming `param` (`schedule.callback_url` for a job's schedule, `url`
   * for an MCP connection).
   */
  async check(url: string, param = 'callback_url'): Promise<void> {
    const parsed = this.checkUrl(url, param);
    if (this.o.allowPrivate) return;
    await this.publicAddresses(hostOf(parsed), param);
  }

  /**
   * Every address `host` resolves to, refusing with a 400 naming `param` when it does not resolve or when one is not
   * public (unless `dev` or `webhooks.allow_private_targets`). A proxy's host (issue 23) is checked this way when the
   * connection is made and again when a run starts, and the sandbox firewall lets that run reach only the addresses
   * answered then. `trusted` skips the refusal for a host the operator chose (sandbox.egress_proxy), which may well
   * be on a private network.
   */
  async publicAddresses(host: string, param: string, trusted = false): Promise<string[]> {
    let addresses: LookupAddress[];
    try {
      addresses = isIP(host) === 0 ? await this.o.resolver.addresses(host) : [{ address: host, family: isIP(host) }];
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw refuse(code === 'ENOTFOUND' || code === 'ENODATA' ? `${param} host '${host}' does not resolve` : `${param} host '${host}' could not be resolved (${code ?? 'no answer'})`, param);
    }
    if (addresses.length === 0) throw refuse(`${param} host '${host}' does not resolve`, param);
    const bad = this.o.allowPrivate || trusted ? undefined : this.firstRefused(addresses);
    if (bad) throw refuse(forbiddenMessage(host, bad.address, bad.refusal, param), param);
    return [...new Set(addresses.map((a) => a.address))];
  }

  /**
   * Checks a target before connecting: the scheme, and an IP-literal host (which never goes through a lookup).
   * Throws `ForbiddenTargetError`.
   */
  assertDeliverable(url: URL, label = 'callback_url'): void {
    try {
      this.checkUrl(url.href, label);
    } catch (err) {
      throw new ForbiddenTargetError((err as Error).message);
    }
    const host = hostOf(url);
    if (this.o.allowPrivate || isIP(host) === 0) return;
    const refusal = this.o.forbidden().refusal(host);
    if (refusal !== null) throw new ForbiddenTargetError(forbiddenMessage(host, host, refusal, label));
  }

  /**
   * A `lookup` for `http(s).request`: resolves through the configured resolver and refuses forbidden addresses, so
   * that the check applies to the addresses the socket may connect to, whatever DNS answers by then.
   */
  lookup(label = 'callback_url'): LookupFunction {
    return (hostname, options, callback) => {
      this.o.resolver.addresses(hostname).then(
        (found) => {
          const bad = this.o.allowPrivate ? undefined : this.firstRefused(found);
          if (bad) return callback(new ForbiddenTargetError(forbiddenMessage(hostname, bad.address, bad.refusal, label)), '', 0);
          const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
          const list = family === 4 || family === 6 ? found.filter((a) => a.family === family) : found;
          if (list.length === 0) return callback(Object.assign(new Error(`${hostname} does not resolve`), { code: 'ENOTFOUND' }), '', 0);
          if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
          callback(null, list[0]!.address, list[0]!.family);
        },
        (err: NodeJS.ErrnoException) => callback(err, '', 0),
      );
    };
  }

  private firstRefused(addresses: readonly LookupAddress[]): { address: string; refusal: AddressRefusal } | undefined {
    const forbidden = this.o.forbidden();
    for (const { address } of addresses) {
      const refusal = forbidden.refusal(address);
      if (refusal !== null) return { address, refusal };
    }
    return undefined;
  }

  /** Parses the URL and checks what can be known without DNS. */
  private checkUrl(url: string, param: string): URL {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw refuse(`${param} '${url}' is not an absolute URL`, param);
    }
    if (parsed.protocol !== 'https:' && !(this.o.allowPrivate && parsed.protocol === 'http:')) {
      throw refuse(
        this.o.allowPrivate
          ? `${param} must use http or https, got '${parsed.protocol}'`
          : `${param} must use https (got '${parsed.protocol}'); http targets need dev mode or webhooks.allow_private_targets`,
        param,
      );
    }
    if (parsed.username !== '' || parsed.password !== '') throw refuse(`${param} must not carry credentials`, param);
    return parsed;
  }
}

function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

function refuse(message: string, param: string): InvalidRequestError {
  return new InvalidRequestError('invalid_callback_url', message, { param });
}

function forbiddenMessage(host: string, address: string, refusal: AddressRefusal, param: string): string {
  const what = host === address ? `${param} host '${host}' is` : `${param} host '${host}' resolves to ${address}, which is`;
  return `${what} not a public address (${refusal.range}: ${refusal.name}); loopback, private or link-local targets need dev mode or webhooks.allow_private_targets`;
}
