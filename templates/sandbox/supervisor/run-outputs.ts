import { readdir, stat } from 'node:fs/promises';
import { isAbsolute, join, normalize, sep } from 'node:path';
import type { Readable } from 'node:stream';
import type { Download } from 'playwright-core';
import type { OutputFile, OutputLimits, OutputListing, OutputRefusal } from '../../../src/sandbox/protocol.js';
import { runAs, type TaskUser } from './task-user.js';
import type { WorkspaceFiles } from './workspace-files.js';

/** How often a download under way is measured against the run's byte limit: it passes it by at most this much transfer. */
const WATCH_MS = 100;
/** How long a listing waits for downloads under way to end; a download still going then is cancelled. */
const SETTLE_MS = 30_000;
/** The longest name a file system takes, in bytes; the daemon cuts names further when it keeps them. */
const FS_NAME_BYTES = 255;
/**
 * Lists the regular files under the directory, with their sizes and paths below it, NUL-separated (names may hold
 * anything else); symbolic links are not followed, nor listed. No directory (the task removed it): no files.
 */
const LIST_FILES = 'test -d "$1" || exit 0; exec find "$1" -type f -printf "%s\\t%P\\0"';

/**
 * The run's files before the daemon takes them (issue 23, item 2): `/workspace/out/`, made at start and owned by the
 * task user, where code writes what it returns and where every browser download is moved, under the name the
 * download suggested, once Chromium has it. Files are listed and read as the task user (see workspace-files.ts).
 * Downloads are measured while they arrive, in the browser's downloads directory, and cancelled past the run's
 * limits, so a large one never fills the sandbox's disk.
 */
export class RunOutputs {
  readonly dir: string;
  private limits: OutputLimits | null = null;
  private readonly refused: OutputRefusal[] = [];
  private readonly underWay = new Map<Download, Promise<void>>();
  /** Names of downloads being moved in, which the next one must not take. */
  private readonly claimed = new Set<string>();

  constructor(
    workspace: string,
    private readonly user: TaskUser,
    private readonly files: WorkspaceFiles,
  ) {
    this.dir = join(workspace, 'out');
  }

  /** Makes the directory as the task user, so that code and downloads may write there. */
  async prepare(): Promise<void> {
    await runAs(this.user, 'mkdir', ['-p', '--', this.dir]);
  }

  setLimits(limits: OutputLimits): void {
    this.limits = limits;
  }

  /** Keeps `download` (arriving in `downloadsDir`, Chromium's) once it is complete, within the limits. */
  track(download: Download, downloadsDir: string): void {
    const work = this.keep(download, downloadsDir).catch((error: unknown) => {
      process.stderr.write(`supervisor: a download could not be kept: ${error instanceof Error ? error.message : String(error)}\n`);
    });
    this.underWay.set(download, work);
    void work.finally(() => this.underWay.delete(download));
  }

  /** The files there are, once the downloads under way have ended (or, after `SETTLE_MS`, were cancelled). */
  async listing(): Promise<OutputListing> {
    if (this.underWay.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), SETTLE_MS)));
      const settled = await Promise.race([Promise.all(this.underWay.values()), late]);
      clearTimeout(timer);
      if (settled === 'late') {
        await Promise.all([...this.underWay.keys()].map((download) => download.cancel().catch(() => undefined)));
        await Promise.all(this.underWay.values());
      }
    }
    return { files: await this.list(), refused: [...this.refused] };
  }

  /** A listed file's bytes, or null when it is not there (or not a regular file the task user can read). */
  read(name: string): Promise<Readable | null> {
    const normalized = normalize(name);
    if (name === '' || name.includes('\0') || isAbsolute(name) || normalized === '..' || normalized.startsWith(`..${sep}`)) {
      return Promise.resolve(null);
    }
    return this.files.read(join(this.dir, normalized));
  }

  private async keep(download: Download, downloadsDir: string): Promise<void> {
    const suggested = download.suggestedFilename();
    const present = await this.list();
    const limits = this.limits;
    if (limits !== null && present.length + this.claimed.size >= limits.maxCount) {
      await download.cancel();
      this.refused.push({ name: suggested, limit: 'count' });
      return;
    }
    const budget = limits === null ? Infinity : limits.maxBytes - present.reduce((sum, file) => sum + file.size, 0);
    let over = false;
    const watch = setInterval(() => {
      void arrivedBytes(downloadsDir).then((bytes) => {
        if (bytes <= budget || over) return;
        over = true;
        void download.cancel().catch(() => undefined);
      });
    }, WATCH_MS);
    let path: string | null;
    try {
      path = await download.path();
    } catch {
      path = null;
    } finally {
      clearInterval(watch);
    }
    const size = path === null ? null : (await stat(path)).size;
    if (over || (size !== null && size > budget)) {
      if (path !== null) await runAs(this.user, 'rm', ['-f', '--', path]);
      this.refused.push({ name: suggested, limit: 'bytes' });
      return;
    }
    // Cancelled or failed in the browser, for a reason of its own: there is no file to keep.
    if (path === null) return;
    const taken = new Set([...present.map((file) => file.name), ...this.claimed]);
    const name = uniqueName(fsName(suggested), taken);
    this.claimed.add(name);
    try {
      await runAs(this.user, 'mv', ['-n', '--', path, join(this.dir, name)]);
    } finally {
      this.claimed.delete(name);
    }
  }

  private async list(): Promise<OutputFile[]> {
    const out = await runAs(this.user, 'sh', ['-c', LIST_FILES, 'sh', this.dir]);
    return out
      .split('\0')
      .filter((entry) => entry !== '')
      .map((entry) => {
        const tab = entry.indexOf('\t');
        return { size: Number(entry.slice(0, tab)), name: entry.slice(tab + 1) };
      });
  }
}

/** The bytes of the downloads in Chromium's directory so far (its directory is readable: see browser.ts). */
async function arrivedBytes(dir: string): Promise<number> {
  const entries = await readdir(dir).catch(() => [] as string[]);
  const sizes = await Promise.all(entries.map((entry) => stat(join(dir, entry)).then((s) => (s.isFile() ? s.size : 0), () => 0)));
  return sizes.reduce((sum, size) => sum + size, 0);
}

/** A name the file system takes: one path segment, no NUL, not `.` or `..`, at most 255 bytes. */
function fsName(suggested: string): string {
  let name = suggested.replace(/[/\0]/g, '_');
  if (name === '' || name === '.' || name === '..') name = 'download';
  // Cut from the front, so that the extension stays.
  while (Buffer.byteLength(name) > FS_NAME_BYTES) name = [...name].slice(1).join('');
  return name;
}

/** `name`, or `name (2)`, `name (3)`... before its extension, as browsers save a second download of one name. */
function uniqueName(name: string, taken: Set<string>): string {
  const dot = name.lastIndexOf('.');
  const [base, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  let unique = name;
  for (let n = 2; taken.has(unique); n++) unique = fsName(`${base} (${n})${extension}`);
  return unique;
}
