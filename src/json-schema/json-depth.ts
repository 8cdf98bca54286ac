/**
 * The deepest nesting of objects and arrays in a JSON text, found by one pass over it (brackets inside strings
 * don't count). Checked before parsing so that a 1 MiB body of `[[[[...` cannot reach the recursive code that
 * validates, hashes or copies bodies.
 */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) max = depth;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return max;
}

/** Deep enough for any real schema or inputs object; shallow enough for every recursive walk. */
export const MAX_JSON_DEPTH = 64;
