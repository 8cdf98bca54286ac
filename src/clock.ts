/** An injectable clock so that time-dependent behaviour (caps, leases, schedules, link expiry) can be tested. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}
