import { Lifecycle } from '../lifecycle.js';
import type { WaitpointStatus } from '../vocabulary/waits.js';

/**
 * A waitpoint's status: it waits until what it waits for comes (completed), its time is up (expired), or the attempt
 * that waits ends first, stopped, cancelled or re-queued (abandoned). Each end is final.
 */
export const waitpointLifecycle = new Lifecycle<WaitpointStatus>('waitpoint', {
  waiting: ['completed', 'expired', 'abandoned'],
  completed: [],
  expired: [],
  abandoned: [],
});
