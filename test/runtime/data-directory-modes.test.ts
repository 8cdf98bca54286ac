import { chmodSync, mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loosePaths, tightenDataDirectory } from '../../src/runtime/data-directory-modes.js';
import { tempDir } from '../fixtures/temp-dir.js';

let home: { path: string; remove(): void };
let outside: { path: string; remove(): void };
beforeEach(() => {
  home = tempDir('errand-modes-');
  outside = tempDir('errand-outside-');
});
afterEach(() => {
  home.remove();
  outside.remove();
});

const mode = (path: string) => statSync(path).mode & 0o777;

/** A data directory as one made before issue 21 was: readable by every local user. */
function looseHome(): void {
  chmodSync(home.path, 0o755);
  writeFileSync(join(home.path, 'errand.db'), 'db', { mode: 0o644 });
  writeFileSync(join(home.path, 'errand.db-wal'), 'wal', { mode: 0o644 });
  writeFileSync(join(home.path, 'master.key'), 'k', { mode: 0o600 });
  mkdirSync(join(home.path, 'artifacts', 'org_1'), { recursive: true, mode: 0o755 });
  writeFileSync(join(home.path, 'artifacts', 'org_1', 'shot.png'), 'png', { mode: 0o640 });
  mkdirSync(join(home.path, 'sandboxes', 'run_1', 'workspace'), { recursive: true, mode: 0o755 });
  writeFileSync(join(home.path, 'sandboxes', 'run_1', 'workspace', 'out.txt'), 'x', { mode: 0o644 });
  writeFileSync(join(outside.path, 'elsewhere.txt'), 'not ours', { mode: 0o644 });
  symlinkSync(join(outside.path, 'elsewhere.txt'), join(home.path, 'link-out'));
}

describe('loosePaths', () => {
  it('finds what other users can read, without following links or entering the sandboxes\' workspaces', () => {
    looseHome();
    expect(loosePaths(home.path).sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      { path: '.', mode: '0755' },
      { path: 'artifacts', mode: '0755' },
      { path: 'artifacts/org_1', mode: '0755' },
      { path: 'artifacts/org_1/shot.png', mode: '0640' },
      { path: 'errand.db', mode: '0644' },
      { path: 'errand.db-wal', mode: '0644' },
      { path: 'sandboxes', mode: '0755' },
    ]);
  });
});

describe('tightenDataDirectory', () => {
  it('takes group and other permissions off, keeping the owner\'s, and reports what it changed', () => {
    looseHome();
    const report = tightenDataDirectory(home.path);
    expect(report.failed).toEqual([]);
    expect(report.tightened.map((p) => p.path).sort()).toEqual(['.', 'artifacts', 'artifacts/org_1', 'artifacts/org_1/shot.png', 'errand.db', 'errand.db-wal', 'sandboxes']);
    expect(mode(home.path)).toBe(0o700);
    expect(mode(join(home.path, 'errand.db'))).toBe(0o600);
    expect(mode(join(home.path, 'artifacts', 'org_1'))).toBe(0o700);
    expect(mode(join(home.path, 'artifacts', 'org_1', 'shot.png'))).toBe(0o600);
    expect(mode(join(home.path, 'sandboxes'))).toBe(0o700);
    expect(mode(join(outside.path, 'elsewhere.txt'))).toBe(0o644);
    expect(loosePaths(home.path)).toEqual([]);
    expect(tightenDataDirectory(home.path)).toEqual({ tightened: [], failed: [] });
  });
});
