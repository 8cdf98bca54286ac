/** An injectable clock so that time-dependent behaviour (caps, leases, schedules, link expiry) can be tested. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** The last instant formatted: the timestamps one request writes (its run, its event, its cap check) share it. */
let lastMs = Number.NaN;
let lastIso = '';

export function isoTime(ms: number): string {
  if (ms !== lastMs) {
    lastIso = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastIso;
}
