import { Writable } from 'node:stream';

/** A terminal: where frames are drawn, and where its size comes from. */
export interface Terminal {
  columns: number;
  rows: number;
  write(text: string): unknown;
  on(event: 'resize', listener: () => void): unknown;
  off(event: 'resize', listener: () => void): unknown;
}

const CSI = '\u001B[';

/**
 * Ends a row that the next row continues as one line of the terminal's (a link filled to the last column): a word
 * joiner, invisible and of no width, so Ink lays the row out as it is. The writer drops it and writes the next row
 * straight after, so that the terminal wraps there itself and a selection copies the line whole.
 */
export const SOFT_WRAP = '\u2060';

/**
 * Draws whole frames on a full-screen terminal by rewriting only the lines that changed, each in place (cursor
 * positioning, then the line, then "erase to end of line"). Ink renders into it in debug mode, which writes every
 * frame whole: its own renderers would erase and rewrite the whole frame on every update (the standard one) or
 * put lines one row off (the incremental one, in ink 6.8). The screen is cleared only when the terminal is resized.
 */
export class FrameWriter extends Writable {
  readonly isTTY = true;
  private previous: string[] = [];

  constructor(private readonly terminal: Terminal) {
    super({ decodeStrings: false });
    terminal.on('resize', this.onResize);
  }

  get columns(): number {
    return this.terminal.columns;
  }

  get rows(): number {
    return this.terminal.rows;
  }

  override _write(chunk: string | Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    const frame = String(chunk);
    // Ink writes an empty chunk to wait for its earlier writes; it is not a frame.
    if (frame !== '') this.draw(frame);
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.terminal.off('resize', this.onResize);
    callback(error);
  }

  private draw(frame: string): void {
    const lines = frame.replace(/\n$/, '').split('\n');
    let out = '';
    for (let i = 0; i < Math.max(lines.length, this.previous.length); i++) {
      // A row continued by the next ones goes out with them, whole, whenever one of them changed: the terminal wraps
      // it at the last column itself, and nothing may come between (an erase there would take the last character).
      let end = i;
      while (end < lines.length - 1 && lines[end]!.endsWith(SOFT_WRAP)) end++;
      const group = i < lines.length ? lines.slice(i, end + 1) : [''];
      if (group.some((line, k) => line !== this.previous[i + k])) out += `${CSI}${i + 1};1H${group.map((line) => line.replace(SOFT_WRAP, '')).join('')}${CSI}K`;
      i += group.length - 1;
    }
    this.previous = lines;
    if (out !== '') this.terminal.write(out);
  }

  private readonly onResize = (): void => {
    // Lines wrapped or cut at the old width are gone from view anyway: start from a clean screen.
    this.previous = [];
    this.terminal.write(`${CSI}2J`);
    this.emit('resize');
  };
}
