import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { FrameWriter, SOFT_WRAP, type Terminal } from '../../../cli/tui/dashboard/frame-writer.js';

class FakeTerminal extends EventEmitter implements Terminal {
  columns = 10;
  rows = 6;
  written: string[] = [];
  write(text: string): boolean {
    this.written.push(text);
    return true;
  }
}

const draw = (writer: FrameWriter, rows: string[]) => new Promise<void>((resolve) => writer.write(`${rows.join('\n')}\n`, () => resolve()));
const at = (row: number) => `\u001B[${row};1H`;
const ERASE = '\u001B[K';

describe('FrameWriter', () => {
  it('writes a row continued by the next as one line for the terminal to wrap, with nothing between, and again whole when a part changes', async () => {
    const terminal = new FakeTerminal();
    const writer = new FrameWriter(terminal);
    await draw(writer, ['title', `http://exa${SOFT_WRAP}`, `mple.com/a${SOFT_WRAP}`, '?t=1', 'end']);
    expect(terminal.written.at(-1)).toBe(`${at(1)}title${ERASE}${at(2)}http://example.com/a?t=1${ERASE}${at(5)}end${ERASE}`);

    await draw(writer, ['title', `http://exa${SOFT_WRAP}`, `mple.com/a${SOFT_WRAP}`, '?t=2', 'end']);
    expect(terminal.written.at(-1)).toBe(`${at(2)}http://example.com/a?t=2${ERASE}`);

    await draw(writer, ['title', `http://exa${SOFT_WRAP}`, `mple.com/a${SOFT_WRAP}`, '?t=2', 'the end']);
    expect(terminal.written.at(-1)).toBe(`${at(5)}the end${ERASE}`);

    // A shorter frame erases the rows it no longer has.
    await draw(writer, ['title']);
    expect(terminal.written.at(-1)).toBe(`${at(2)}${ERASE}${at(3)}${ERASE}${at(4)}${ERASE}${at(5)}${ERASE}`);
    writer.destroy();
  });
});
