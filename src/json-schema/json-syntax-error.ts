/** Where a JSON text stops being JSON, and what was expected there. Lines and columns count from 1. */
export interface JsonSyntaxError {
  offset: number;
  line: number;
  column: number;
  problem: string;
}

class Stop extends Error {
  constructor(
    readonly offset: number,
    readonly problem: string,
  ) {
    super(problem);
  }
}

/**
 * The first syntax error of a JSON text (RFC 8259), or null when it has none. V8's messages give a position for some
 * errors and not for others (and quote the text around it), so a caller told only "not valid JSON" could not find
 * the mistake (issue 21, item 15); this reads the text itself. Only on the error path: the parser has already
 * refused the body. Recursion is bounded by the depth limit checked before parsing.
 */
export function jsonSyntaxError(text: string): JsonSyntaxError | null {
  let i = 0;
  const found = () => (i >= text.length ? 'the end of the body' : JSON.stringify(text[i]));
  const expected = (what: string): never => {
    throw new Stop(i, `expected ${what}, found ${found()}`);
  };
  const space = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const digits = (what: string) => {
    if (!/[0-9]/.test(text[i] ?? '')) expected(what);
    while (/[0-9]/.test(text[i] ?? '')) i++;
  };
  const string = () => {
    i++;
    for (;;) {
      if (i >= text.length) expected('the closing \'"\' of a string');
      const c = text[i]!;
      if (c === '"') {
        i++;
        return;
      }
      if (c < ' ') throw new Stop(i, `a control character (${JSON.stringify(c)}) inside a string: write it as an escape`);
      if (c === '\\') {
        i++;
        if (text[i] === 'u') {
          i++;
          for (let k = 0; k < 4; k++, i++) if (!/[0-9a-fA-F]/.test(text[i] ?? '')) expected('four hexadecimal digits after \\u');
        } else if (text[i] !== undefined && '"\\/bfnrt'.includes(text[i]!)) i++;
        else expected('an escape (\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\uXXXX)');
      } else i++;
    }
  };
  const number = () => {
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else digits('a digit');
    if (text[i] === '.') {
      i++;
      digits('a digit after the decimal point');
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      digits('a digit in the exponent');
    }
  };
  /** An object's members or an array's items: `item` each, separated by commas, up to `close`. */
  const sequence = (close: '}' | ']', item: () => void): void => {
    i++;
    space();
    if (text[i] === close) {
      i++;
      return;
    }
    for (;;) {
      item();
      space();
      if (text[i] === ',') i++;
      else if (text[i] === close) {
        i++;
        return;
      } else expected(`',' or '${close}'`);
    }
  };
  const member = (): void => {
    space();
    if (text[i] !== '"') expected('a member name in double quotes');
    string();
    space();
    if (text[i] !== ':') expected("':' after the member name");
    i++;
    value();
  };
  const value = (): void => {
    space();
    const c = text[i];
    if (c === '{') return sequence('}', member);
    if (c === '[') return sequence(']', value);
    if (c === '"') return string();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return number();
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return;
      }
    }
    expected('a value');
  };
  try {
    value();
    space();
    if (i < text.length) throw new Stop(i, `${found()} after the end of the JSON value`);
    return null;
  } catch (err) {
    if (!(err instanceof Stop)) throw err;
    const before = text.slice(0, err.offset);
    const line = before.split('\n').length;
    return { offset: err.offset, line, column: err.offset - before.lastIndexOf('\n'), problem: err.problem };
  }
}
