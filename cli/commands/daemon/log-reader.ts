import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

const CHUNK = 64 * 1024;

/** Where a reader stopped in a log file: the file (by inode) and the offset after its last complete line. */
export interface LogPosition {
  ino: number;
  pos: number;
}

/**
 * The last `n` lines of a rotated log: from `<path>`, then `<path>.1` and so on while more are wanted, read from
 * the end in chunks (a log file may be large). Oldest first; `end` is where they stop in `<path>`, for `follow`.
 */
export function lastLines(path: string, n: number): { lines: string[]; end: LogPosition | null } {
  const lines: string[] = [];
  let end: LogPosition | null = null;
  for (let i = 0; ; i++) {
    const taken = tailOf(i === 0 ? path : `${path}.${i}`, n - lines.length);
    if (taken === null) break;
    if (i === 0) end = taken.end;
    lines.unshift(...taken.lines);
    if (lines.length >= n) break;
  }
  return { lines, end };
}

/** The last `n` complete lines of one file and where they end; null when it does not exist. */
function tailOf(path: string, n: number): { lines: string[]; end: LogPosition } | null {
  const fd = openIfExists(path);
  if (fd === null) return null;
  try {
    const stat = fstatSync(fd);
    let start = stat.size;
    let buffered = Buffer.alloc(0);
    while (start > 0 && count(buffered, 0x0a) <= n) {
      const from = Math.max(0, start - CHUNK);
      const chunk = Buffer.alloc(start - from);
      readSync(fd, chunk, 0, chunk.length, from);
      buffered = Buffer.concat([chunk, buffered]);
      start = from;
    }
    // Up to the last newline: a line still being written is left to the follower.
    const complete = buffered.subarray(0, buffered.lastIndexOf(0x0a) + 1);
    const lines = n === 0 ? [] : complete.toString('utf8').split('\n').filter((l) => l !== '').slice(-n);
    return { lines, end: { ino: stat.ino, pos: start + complete.length } };
  } finally {
    closeSync(fd);
  }
}

function count(buf: Buffer, byte: number): number {
  let c = 0;
  for (let i = buf.indexOf(byte); i >= 0; i = buf.indexOf(byte, i + 1)) c += 1;
  return c;
}

/**
 * Follows a log file from its end as it grows, through rotations. When the path names another file (the daemon
 * rotated it), what is left of the old file is read to its end, then the files rotated after it (`<path>.k-1` ...
 * `<path>.1`, when it was rotated more than once between two looks), then the new file from its start: no line is
 * missed or repeated. Stops when `signal` aborts.
 */
export async function follow(path: string, from: LogPosition | null, onLine: (line: string) => void, signal: AbortSignal, pollMs = 200): Promise<void> {
  let partial = '';
  const emit = (text: string) => {
    const lines = (partial + text).split('\n');
    partial = lines.pop()!;
    for (const line of lines) if (line !== '') onLine(line);
  };
  let current = from === null ? openAt(path, 'start') : reopen(path, from);
  try {
    while (!signal.aborted) {
      if (current !== null) current.pos = readToEnd(current.fd, current.pos, emit);
      const ino = inodeOf(path);
      if (ino !== null && ino !== current?.ino) {
        const next = openAt(path, 'start');
        if (current !== null) {
          // Opened before these reads, so lines written meanwhile wait in `next`.
          readToEnd(current.fd, current.pos, emit);
          for (const fd of rotatedSince(path, current.ino)) {
            readToEnd(fd, 0, emit);
            closeSync(fd);
          }
          closeSync(current.fd);
        }
        current = next;
        continue;
      }
      await sleep(pollMs, undefined, { signal }).catch(() => undefined);
    }
  } finally {
    if (current !== null) closeSync(current.fd);
  }
}

/** The file a reader stopped in, at that place, wherever rotation has moved it since; else the current file. */
function reopen(path: string, at: LogPosition): { fd: number; ino: number; pos: number } | null {
  for (let i = 0; ; i++) {
    const file = i === 0 ? path : `${path}.${i}`;
    const ino = inodeOf(file);
    if (ino === null) return openAt(path, 'start');
    if (ino !== at.ino) continue;
    const opened = openAt(file, 'start');
    return opened === null ? openAt(path, 'start') : { ...opened, pos: at.pos };
  }
}

/** Opened descriptors of the rotated files newer than the one with inode `ino`, oldest first. */
function rotatedSince(path: string, ino: number): number[] {
  const newer: string[] = [];
  for (let i = 1; ; i++) {
    const at = inodeOf(`${path}.${i}`);
    if (at === null) return [];
    if (at === ino) break;
    newer.unshift(`${path}.${i}`);
  }
  return newer.flatMap((file) => {
    try {
      return [openSync(file, 'r')];
    } catch {
      return [];
    }
  });
}

function openAt(path: string, where: 'start' | 'end'): { fd: number; ino: number; pos: number } | null {
  const fd = openIfExists(path);
  if (fd === null) return null;
  const stat = fstatSync(fd);
  return { fd, ino: stat.ino, pos: where === 'end' ? stat.size : 0 };
}

function readToEnd(fd: number, from: number, emit: (text: string) => void): number {
  const buf = Buffer.alloc(CHUNK);
  let pos = from;
  for (;;) {
    const read = readSync(fd, buf, 0, buf.length, pos);
    if (read === 0) return pos;
    pos += read;
    emit(buf.subarray(0, read).toString('utf8'));
  }
}

/** A descriptor to read `path`, or null when there is no such file (a log not written yet, or rotated away). */
function openIfExists(path: string): number | null {
  try {
    return openSync(path, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

function inodeOf(path: string): number | null {
  try {
    return statSync(path).ino;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}
