/** `12s`, `5m`, `3h`, `2d`: how long ago, in the fewest characters. */
export function age(fromIso: string, nowMs: number): string {
  const s = Math.max(0, Math.floor((nowMs - Date.parse(fromIso)) / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86_400)}d`;
}

/** `in 5m`, `in 3h`: how long until. */
export function until(toIso: string, nowMs: number): string {
  const s = Math.max(0, Math.ceil((Date.parse(toIso) - nowMs) / 1000));
  if (s < 60) return `in ${s}s`;
  if (s < 3600) return `in ${Math.floor(s / 60)}m`;
  if (s < 86_400) return `in ${Math.floor(s / 3600)}h`;
  return `in ${Math.floor(s / 86_400)}d`;
}

/** Exactly `width` characters: cut with an ellipsis, or padded. */
export function fit(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  if (width <= 0) return '';
  const flat = text.replace(/[\r\n\t]/g, ' ');
  if (flat.length > width) return width === 1 ? '…' : `${flat.slice(0, width - 1)}…`;
  return align === 'right' ? flat.padStart(width) : flat.padEnd(width);
}

export function money(usd: number): string {
  return `$${usd.toFixed(usd >= 100 ? 0 : usd >= 1 ? 2 : 4)}`;
}
