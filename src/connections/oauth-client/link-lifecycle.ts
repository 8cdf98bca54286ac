import { Lifecycle } from '../../lifecycle.js';
import type { LinkStatus } from '../../store/connections-store.js';

/**
 * A hosted connect link's flow, as stored: the button uses an unexpired link up (`opened`), the provider's answer
 * is taken once (`answered`, before the code is exchanged, so that a replayed redirect is refused), and the flow
 * ends `authenticated` or `failed` with the connection's change. Expiry is a matter of time, not a move: the status
 * the API answers adds it (`HostedConnect.linkStatus`).
 */
export const linkLifecycle = new Lifecycle<LinkStatus>('connect link', {
  pending: ['opened'],
  opened: ['answered'],
  answered: ['authenticated', 'failed'],
  authenticated: [],
  failed: [],
});
