import { Lifecycle } from '../lifecycle.js';
import type { AuthStatus } from '../store/connections-table.js';

/**
 * A connection's `auth_status`, over its three types: a token connection is authenticated while it has a secret and
 * pending without one; an mcp connection is what connecting to its server last showed, authenticated or failed; an
 * oauth connection is pending until its first connect flow, then authenticated, expired when the provider refuses a
 * refresh (connect again), or failed when a flow failed or its token ran out while the provider could not be
 * reached; a pending oauth connection whose every connect link lapsed unused is expired too (issue 21, item 15: it
 * would otherwise stay pending forever). A status may follow itself: a check, a refresh or a flow that finds the same
 * again records what it found and when. Nothing but a token connection is ever pending again.
 */
export const authLifecycle = new Lifecycle<AuthStatus>('connection', {
  pending: ['pending', 'authenticated', 'failed', 'expired'],
  authenticated: ['authenticated', 'pending', 'failed', 'expired'],
  failed: ['failed', 'authenticated', 'expired'],
  expired: ['authenticated', 'failed'],
});
