import { Lifecycle } from '../lifecycle.js';
import type { HumanRequestStatus } from '../store/human-requests-store.js';

/**
 * A person's request: it waits until answered, until nobody answered within human_timeout_s (expired), or until its
 * attempt ended first (ended: the run was cancelled, or re-queued after its daemon stopped). An answer to an ended
 * request of a run that goes on is kept for its next attempt, which gets it when it asks the same (docs/api.md, "What
 * a run waits for").
 */
export const humanRequestLifecycle = new Lifecycle<HumanRequestStatus>('person request', {
  waiting: ['answered', 'expired', 'ended'],
  ended: ['answered'],
  answered: [],
  expired: [],
});
