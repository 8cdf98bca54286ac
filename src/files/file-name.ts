/** Longest stored name, in UTF-8 bytes: room under the 255 bytes a Linux file name may have. */
export const MAX_FILE_NAME_BYTES = 200;

/**
 * Characters a name may not keep: C0 and C1 controls and DEL (NUL among them), and the invisible format characters
 * that reorder or hide text (bidi marks, embeddings, overrides and isolates; zero-width characters; the BOM), with
 * which `invoice\u202Efdp.exe` reads as `invoiceexe.pdf`.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/gu;

/**
 * The name an uploaded file is stored and placed under in a run's /workspace/in (issue 23, item 3): the last part of
 * what the caller sent (a path's directories are dropped, with either slash), without unsafe characters, without
 * leading dots or spaces (no hidden files, no `.` or `..`) and trailing ones, at most `MAX_FILE_NAME_BYTES` long
 * (its extension kept). `file` when nothing is left.
 */
export function sanitizeFileName(raw: string): string {
  const cleaned = raw.normalize('NFC').replace(UNSAFE, '');
  const last = cleaned.split(/[/\\]/u).pop() ?? '';
  const trimmed = last.replace(/^[\s.]+/u, '').replace(/[\s.]+$/u, '');
  const capped = capBytes(trimmed);
  return capped === '' ? 'file' : capped;
}

/** Whether `name` is one `sanitizeFileName` could have made (the supervisor and the browser tool check names again). */
export function isSafeFileName(name: string): boolean {
  return name !== '' && sanitizeFileName(name) === name;
}

function capBytes(name: string): string {
  if (Buffer.byteLength(name) <= MAX_FILE_NAME_BYTES) return name;
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 && Buffer.byteLength(name.slice(dot)) <= 16 ? name.slice(dot) : '';
  const room = MAX_FILE_NAME_BYTES - Buffer.byteLength(extension);
  let stem = '';
  // By code point, so that a character is never cut in half.
  for (const char of name.slice(0, name.length - extension.length)) {
    if (Buffer.byteLength(stem + char) > room) break;
    stem += char;
  }
  return stem.replace(/[\s.]+$/u, '') + extension;
}
