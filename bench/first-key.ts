import { parseFirstStartNotice } from '../src/runtime/first-start-notice.js';

/** Reads errandd's stdout, line by line, until its first-start notice has shown the new organisation's key. */
export async function firstKey(lines: AsyncIterator<string>): Promise<string> {
  let seen = '';
  for (;;) {
    const line = await lines.next();
    if (line.done === true) throw new Error('errandd printed no first key');
    seen += `${String(line.value)}\n`;
    const notice = parseFirstStartNotice(seen);
    if (notice !== null) return notice.key;
  }
}
