import { chmodSync, lstatSync, readdirSync, type Stats } from 'node:fs';
import { join, relative } from 'node:path';
import { dataPaths } from './paths.js';

/** A path of the data directory that other users can read or enter (a group or other permission bit is set). */
export interface LoosePath {
  /** Relative to the data directory; `.` is the directory itself. */
  path: string;
  /** Its permission bits, octal (`0644`). */
  mode: string;
}

export interface TightenReport {
  tightened: LoosePath[];
  /** Paths whose mode could not be changed (another owner), with the reason. */
  failed: { path: string; error: string }[];
}

const OTHERS = 0o077;

/**
 * Everything in the data directory that other local users could read: the directory, the database and its WAL,
 * config, logs, artifacts, attachments, state files. Links are not followed (their targets are not the directory's),
 * and the workspaces under `sandboxes/` are left to their sandboxes: the directory itself is checked, which keeps
 * others out of everything below it.
 */
export function loosePaths(home: string): LoosePath[] {
  const found: LoosePath[] = [];
  const sandboxes = dataPaths(home).sandboxes;
  const visit = (path: string): void => {
    const stat = statOf(path);
    if (stat === null || stat.isSymbolicLink()) return;
    if ((stat.mode & OTHERS) !== 0) found.push({ path: relative(home, path) || '.', mode: octal(stat.mode) });
    if (!stat.isDirectory() || path === sandboxes) return;
    for (const name of listing(path)) visit(join(path, name));
  };
  visit(home);
  return found;
}

/**
 * Takes group and other permissions off every loose path (0644 becomes 0600, 0755 becomes 0700): a data directory
 * made before issue 21, or by hand, had its database readable by every local user. Answers what changed.
 */
export function tightenDataDirectory(home: string): TightenReport {
  const report: TightenReport = { tightened: [], failed: [] };
  for (const loose of loosePaths(home)) {
    const path = join(home, loose.path);
    try {
      chmodSync(path, Number.parseInt(loose.mode, 8) & ~OTHERS);
      report.tightened.push(loose);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') report.failed.push({ path: loose.path, error: code ?? (err as Error).message });
    }
  }
  return report;
}

function statOf(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch (err) {
    // Retention, a finished sandbox or a rotation may remove a path between the listing and the look.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

function listing(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch (err) {
    // Gone, or not ours to read: nothing below it can be judged or changed from here.
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EACCES') return [];
    throw err;
  }
}

function octal(mode: number): string {
  return `0${(mode & 0o777).toString(8).padStart(3, '0')}`;
}
