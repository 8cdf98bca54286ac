/**
 * Collects text up to a limit, keeping the beginning and the end: the start of output usually says what ran and
 * the end says how it finished, so the middle is what gets cut. Memory stays bounded however much is written.
 */
export class CappedText {
  private head = '';
  private tail = '';
  private total = 0;

  constructor(private readonly limit: number) {}

  append(chunk: string): void {
    this.total += chunk.length;
    const headRoom = Math.ceil(this.limit / 2) - this.head.length;
    if (headRoom > 0) {
      this.head += chunk.slice(0, headRoom);
      chunk = chunk.slice(headRoom);
    }
    const tailLimit = Math.floor(this.limit / 2);
    this.tail = (this.tail + chunk).slice(-tailLimit);
  }

  toString(): string {
    return this.total <= this.limit ? this.head + this.tail : truncationJoin(this.head, this.tail, this.total - this.limit);
  }
}

/** Cuts `text` in the middle so that at most `limit` characters of it remain. */
export function truncateMiddle(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const headLength = Math.ceil(limit / 2);
  return truncationJoin(text.slice(0, headLength), text.slice(text.length - (limit - headLength)), text.length - limit);
}

function truncationJoin(head: string, tail: string, omitted: number): string {
  const count = omitted.toLocaleString('en-US').replaceAll(',', ' ');
  return `${head}\n…[${count} characters omitted]…\n${tail}`;
}
