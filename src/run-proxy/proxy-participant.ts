import type { AttemptParticipant } from '../attempt/attempt-participant.js';
import type { RunProxy } from '../connections/run-connections.js';
import type { SandboxProxy } from '../sandbox/driver.js';

/**
 * The run's proxy (docs/api.md, Proxies): set in the sandbox before anything there goes out, so the browser's first
 * page and the code's first request already leave through it. First of the participants for that reason.
 */
export const proxyParticipant: AttemptParticipant = {
  name: 'proxy',
  async join(attempt) {
    const { proxy } = attempt.credentials;
    if (proxy === null) return null;
    await attempt.sandbox.useProxy(sandboxProxy(proxy), attempt.signal);
    return {};
  },
};

/** The run's proxy as its sandbox takes it: the credentials go to the supervisor alone. */
function sandboxProxy(proxy: RunProxy): SandboxProxy {
  const { endpoint, label, addresses } = proxy;
  const credentials = endpoint.username === null ? {} : { username: endpoint.username, password: endpoint.password ?? '' };
  return { request: { server: endpoint.url, label, ...credentials }, addresses, port: endpoint.port };
}
