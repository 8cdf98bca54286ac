/** A run file's name is at most this many bytes of UTF-8 (extension included): every file system takes 255. */
export const MAX_NAME_BYTES = 200;
/** Longer endings than this are not an extension worth keeping when a name is cut. */
const MAX_EXTENSION_BYTES = 20;
const FALLBACK_NAME = 'file';

/**
 * Characters a name loses (each becomes `_`): path separators; control characters (C0 with NUL, DEL, C1); format
 * characters, which include the bidirectional overrides and isolates (U+202A-U+202E, U+2066-U+2069) that make
 * `invoice\u202Efdp.exe` look like `invoiceexe.pdf`, and zero-width ones; line and paragraph separators; and what
 * Windows refuses in a name, so a file saved from a link saves anywhere.
 */
const UNSAFE = /[/\\\p{Cc}\p{Cf}\p{Zl}\p{Zp}<>:"|?*]/gu;
/** Names Windows reserves for devices, whatever their extension. */
const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\.|$)/i;

/**
 * The name a run's file is listed and served under (issue 23, item 2), from the name a download suggested or the
 * path code wrote it at (relative to /workspace/out/, whose directories join with `_`): no path traversal, no
 * unsafe character, no leading dot or trailing dot or space, at most `MAX_NAME_BYTES` bytes with its extension kept.
 */
export function sanitiseFileName(raw: string): string {
  let name = raw.normalize('NFC').replace(UNSAFE, '_');
  name = name.replace(/^[\s.]+/u, '').replace(/[\s.]+$/u, '');
  if (name === '') name = FALLBACK_NAME;
  if (RESERVED.test(name)) name = `_${name}`;
  return capped(name, MAX_NAME_BYTES);
}

/** `name`, or, when a name in `taken` has it already, `name (2)`, `name (3)`... before its extension; adds it to `taken`. */
export function uniqueFileName(name: string, taken: Set<string>): string {
  let unique = name;
  for (let n = 2; taken.has(unique.toLowerCase()); n++) {
    const { base, extension } = split(name);
    const suffix = ` (${n})`;
    unique = capped(`${base}${suffix}${extension}`, MAX_NAME_BYTES, suffix.length + byteLength(extension));
  }
  // Compared without case: the file saved from two links may land on a file system that ignores it.
  taken.add(unique.toLowerCase());
  return unique;
}

/** Cut to `max` bytes at a character's boundary, keeping the extension and the last `keep` bytes before it whole. */
function capped(name: string, max: number, keep = 0): string {
  if (byteLength(name) <= max) return name;
  const { base, extension } = split(name);
  // `keep` counts ASCII (a ` (2)` suffix), so its bytes are its characters.
  const tailLength = Math.max(0, keep - byteLength(extension));
  const tail = tailLength === 0 ? '' : base.slice(base.length - tailLength);
  const head = base.slice(0, base.length - tail.length);
  return `${cutToBytes(head, max - byteLength(extension) - byteLength(tail))}${tail}${extension}`;
}

function split(name: string): { base: string; extension: string } {
  const dot = name.lastIndexOf('.');
  const extension = dot <= 0 ? '' : name.slice(dot);
  if (extension === '' || byteLength(extension) > MAX_EXTENSION_BYTES + 1) return { base: name, extension: '' };
  return { base: name.slice(0, dot), extension };
}

function cutToBytes(text: string, max: number): string {
  let out = '';
  let bytes = 0;
  for (const char of text) {
    const size = byteLength(char);
    if (bytes + size > max) break;
    out += char;
    bytes += size;
  }
  return out;
}

function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
