/**
 * A moment as a person at this terminal reads it: the local date and time, and the zone (issue 21, item 15: a bare
 * `3:04:05 PM` said neither which day nor which clock). `2026-11-25 19:47:12 UTC+01:00 (Europe/Berlin)`.
 */
export function localTime(iso: string): string {
  const at = new Date(iso);
  const two = (n: number) => String(n).padStart(2, '0');
  const offset = -at.getTimezoneOffset();
  const zone = `UTC${offset < 0 ? '-' : '+'}${two(Math.floor(Math.abs(offset) / 60))}:${two(Math.abs(offset) % 60)}`;
  const name = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const date = `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())} ${two(at.getHours())}:${two(at.getMinutes())}:${two(at.getSeconds())}`;
  return `${date} ${zone}${name === undefined || name === 'UTC' || name === 'Etc/UTC' ? '' : ` (${name})`}`;
}
