/**
 * The text of a top-level member's value in a JSON object's source text, exactly as the caller wrote it, or
 * undefined when the object has no such member. With duplicate members the last wins, as in JSON.parse. `source`
 * must already have parsed as a JSON object (the request's body did), so the scan only tracks strings and nesting.
 */
export function rawJsonMember(source: string, name: string): string | undefined {
  let depth = 0;
  let found: string | undefined;
  let i = 0;
  const n = source.length;
  while (i < n) {
    const c = source[i]!;
    if (c === '"') {
      const end = stringEnd(source, i);
      if (depth === 1 && nextNonSpace(source, end) === ':' && JSON.parse(source.slice(i, end)) === name) {
        const start = skipSpace(source, source.indexOf(':', end) + 1);
        const stop = valueEnd(source, start);
        found = source.slice(start, stop);
        i = stop;
        continue;
      }
      i = end;
      continue;
    }
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    i++;
  }
  return found;
}

/** Index just past the closing quote of the string starting at `start`. */
function stringEnd(s: string, start: number): number {
  let i = start + 1;
  while (i < s.length) {
    const c = s[i]!;
    if (c === '\\') i += 2;
    else if (c === '"') return i + 1;
    else i++;
  }
  return i;
}

function skipSpace(s: string, i: number): number {
  while (i < s.length && (s[i] === ' ' || s[i] === '\t' || s[i] === '\n' || s[i] === '\r')) i++;
  return i;
}

function nextNonSpace(s: string, i: number): string | undefined {
  return s[skipSpace(s, i)];
}

/** Index just past the value starting at `start`. */
function valueEnd(s: string, start: number): number {
  const c = s[start];
  if (c === '"') return stringEnd(s, start);
  if (c === '{' || c === '[') {
    let depth = 0;
    let i = start;
    while (i < s.length) {
      const d = s[i]!;
      if (d === '"') {
        i = stringEnd(s, i);
        continue;
      }
      if (d === '{' || d === '[') depth++;
      else if (d === '}' || d === ']') {
        depth--;
        if (depth === 0) return i + 1;
      }
      i++;
    }
    return i;
  }
  let i = start;
  while (i < s.length && !',}] \t\n\r'.includes(s[i]!)) i++;
  return i;
}
