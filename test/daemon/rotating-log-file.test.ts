import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RotatingLogFile } from '../../daemon/rotating-log-file.js';
import { tempDir } from '../fixtures/temp-dir.js';

describe('RotatingLogFile', () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => {
    dir = tempDir('errand-log-');
  });
  afterEach(() => dir.remove());

  const batch = (from: number, n: number) => Array.from({ length: n }, (_, i) => `{"seq":${from + i},"msg":"line ${from + i}"}\n`).join('');
  const seqs = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { seq: number }).seq) : []);

  it('rotates by size into .1, .2, ... keeping max_files of them, with every line whole and in order', () => {
    const path = join(dir.path, 'errandd.log');
    const log = new RotatingLogFile(path, 1000, 3);
    for (let seq = 0; seq < 400; seq += 4) log.write(batch(seq, 4));
    log.close();

    const files = [`${path}.3`, `${path}.2`, `${path}.1`, path];
    for (const f of files) expect(statSync(f).size).toBeLessThanOrEqual(1000);
    expect(existsSync(`${path}.4`)).toBe(false);
    const kept = files.flatMap(seqs);
    // The newest lines, consecutive up to the last one written: nothing lost or split within what is kept.
    expect(kept.at(-1)).toBe(399);
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => 400 - kept.length + i));
    expect(kept.length).toBeGreaterThan(60);
  });

  it('appends to the file a previous daemon left, counting its size', () => {
    const path = join(dir.path, 'errandd.log');
    const first = new RotatingLogFile(path, 10_000, 2);
    first.write(batch(0, 10));
    first.close();
    const second = new RotatingLogFile(path, 10_000, 2);
    second.write(batch(10, 10));
    second.close();
    expect(seqs(path)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(existsSync(`${path}.1`)).toBe(false);
  });
});
