import { closeSync, fstatSync, openSync, renameSync, writeSync } from 'node:fs';
import type { LineSink } from './log-destination.js';

/**
 * The daemon's log file, written synchronously and rotated by size: once a write would take it past `maxBytes`, the
 * file becomes `<path>.1` (`.1` becomes `.2`, and so on; `<path>.<keep>` goes) and a new one starts. Writes are whole
 * batches of lines (TurnBatchedDestination), so no line is ever split across two files, and renaming never loses
 * one. Synchronous, unlike rotating-file-stream, because the daemon's last lines are written from its exit handler,
 * where an asynchronous stream would drop them. A reader that follows the file (`errand daemon logs -f`) sees the
 * path's inode change and finishes the old file before it opens the new one.
 */
export class RotatingLogFile implements LineSink {
  private fd: number;
  private size: number;

  constructor(
    private readonly path: string,
    private readonly maxBytes: number,
    private readonly keep: number,
  ) {
    this.fd = openSync(path, 'a', 0o600);
    this.size = fstatSync(this.fd).size;
  }

  write(text: string): void {
    const bytes = Buffer.from(text);
    if (this.size > 0 && this.size + bytes.length > this.maxBytes) this.rotate();
    let off = 0;
    while (off < bytes.length) off += writeSync(this.fd, bytes, off);
    this.size += bytes.length;
  }

  close(): void {
    closeSync(this.fd);
  }

  private rotate(): void {
    for (let i = this.keep - 1; i >= 1; i--) renameIfThere(`${this.path}.${i}`, `${this.path}.${i + 1}`);
    renameSync(this.path, `${this.path}.1`);
    const old = this.fd;
    this.fd = openSync(this.path, 'a', 0o600);
    this.size = 0;
    closeSync(old);
  }
}

function renameIfThere(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}
