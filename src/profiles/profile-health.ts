import { Lifecycle } from '../lifecycle.js';
import type { ProfileHealth } from '../store/profiles-table.js';

/**
 * A profile's `health`: unknown until a check (a run's, before its agent starts, or `errand profiles check`) looks at
 * its page, then what the latest one saw; a run that signed in again and saved makes it signed_in. Each status may
 * follow itself: a check that finds the same again records what it saw and when. Never unknown again.
 */
export const profileHealth = new Lifecycle<ProfileHealth>('profile', {
  unknown: ['signed_in', 'signed_out'],
  signed_in: ['signed_in', 'signed_out'],
  signed_out: ['signed_out', 'signed_in'],
});
