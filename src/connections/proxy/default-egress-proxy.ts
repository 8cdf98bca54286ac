import { ConfigError, InvalidRequestError } from '../../errors.js';
import { parseProxyUrl, type ProxyEndpoint } from './proxy-url.js';

/**
 * `sandbox.egress_proxy`, the proxy of every run that names none, parsed at start so that a daemon with an unusable
 * one refuses to start. The error never quotes the value: it may carry the proxy's password.
 */
export function defaultEgressProxy(value: string | null): ProxyEndpoint | null {
  if (value === null || value === '') return null;
  try {
    return parseProxyUrl(value, 'sandbox.egress_proxy');
  } catch (err) {
    if (err instanceof InvalidRequestError) throw new ConfigError('sandbox.egress_proxy', err.message.replace(/^sandbox\.egress_proxy /, ''));
    throw err;
  }
}
