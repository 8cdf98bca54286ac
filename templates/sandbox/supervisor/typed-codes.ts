/**
 * The TOTP codes this sandbox typed, which only the supervisor knows (the daemon sends seeds, never codes): masked as
 * `[totp:<name>]` in every browser result it answers (page text, a snapshot's field values, URLs, titles) and in
 * every file of the recording's trace (the fill's parameters, DOM snapshots, the form's request). A code is masked
 * only where it stands alone, not inside a longer run of digits: a trace is full of timestamps and sizes, and a
 * code's digits inside one are not the code.
 */
export class TypedCodes {
  private readonly labels = new Map<string, string>();
  private pattern: RegExp | null = null;

  add(code: string, name: string): void {
    if (this.labels.has(code)) return;
    this.labels.set(code, `[totp:${name}]`);
    // Longest first, so that an 8-digit code is not masked as the 6-digit one it may start with.
    const alternatives = [...this.labels.keys()].sort((a, b) => b.length - a.length).join('|');
    this.pattern = new RegExp(`(?<![0-9])(?:${alternatives})(?![0-9])`, 'g');
  }

  text(text: string): string {
    return this.pattern === null ? text : text.replace(this.pattern, (code) => this.labels.get(code)!);
  }

  /** The same in a file of any kind: its bytes read one to a character, so that text and binary alike come back intact. */
  bytes(body: Buffer): Buffer {
    if (this.pattern === null) return body;
    const latin1 = body.toString('latin1');
    const masked = this.text(latin1);
    return masked === latin1 ? body : Buffer.from(masked, 'latin1');
  }
}
