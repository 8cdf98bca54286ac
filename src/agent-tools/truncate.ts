/** Cuts `text` in the middle so that about `limit` characters remain: the start says what ran, the end how it ended. */
export function truncateMiddle(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const head = Math.ceil(limit / 2);
  const tail = limit - head;
  return `${text.slice(0, head)}\n…[${text.length - limit} characters omitted]…\n${text.slice(text.length - tail)}`;
}

/** Cuts the end off, for one-line summaries. */
export function truncateEnd(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}
