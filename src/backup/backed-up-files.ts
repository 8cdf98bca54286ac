import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join, normalize, sep } from 'node:path';
import { CONFIG_FILE, configTextWithout } from '../config/config-file.js';
import { SECRET_KEYS } from '../config/schema.js';
import { SEALED_CONFIG_FILE } from '../config/sealed-config.js';
import { dataPaths } from '../runtime/paths.js';
import type { BackupFile } from '../store/backup-archive.js';

/**
 * What of the data directory a backup holds besides the database: files that rows of the database name (everything
 * under `artifacts/`, `mail/attachments/` and `files/`, whichever table names it; not the uploads still streaming in
 * `files/incoming/`, which no row names yet) and the configuration: `config.json` without any secret key (issue 21: a
 * plain relay password or client secret there stays behind) and the operator's sealed secrets. Never the master key
 * (a backup must be useless without it), the CLI's saved API key, the daemon's pid file and log, sandbox workspaces,
 * or mail kept by the capture transport (a development aid). A new kind of file that rows name goes under one of
 * these directories, or adds its own here.
 */
export const BACKED_UP_DIRECTORIES = ['artifacts', 'mail/attachments', 'files'] as const;
/** Under a backed-up directory, but named by no row: uploads still streaming. */
const NOT_BACKED_UP = [dataPaths('').filesIncoming];
export const BACKED_UP_FILES = [CONFIG_FILE, SEALED_CONFIG_FILE] as const;

export interface BackedUpFilesOptions {
  /** Only files last written before this are taken. */
  beforeMs: number;
  /** Told the secret keys `config.json` held in plain text, which the backup leaves out. */
  onPlainSecretsLeftOut: (keys: string[]) => void;
}

/**
 * The files to back up, read from `home`: regular files only (a link could lead out of the data directory), and
 * only those last written before `beforeMs`, so that a file written after the database was copied (whose row the
 * copy does not have) is left out.
 */
export function* backedUpFiles(home: string, options: BackedUpFilesOptions): Generator<BackupFile> {
  for (const name of BACKED_UP_FILES) {
    for (const file of fileAt(home, name, options.beforeMs)) yield name === CONFIG_FILE ? withoutSecrets(file, options) : file;
  }
  for (const dir of BACKED_UP_DIRECTORIES) yield* walk(home, dir, options.beforeMs);
}

function withoutSecrets(file: BackupFile, options: BackedUpFilesOptions): BackupFile {
  const result = configTextWithout(file.content.toString('utf8'), SECRET_KEYS);
  // The daemon does not start with such a file either; copying it could copy a secret.
  if (result === null) throw new Error(`${CONFIG_FILE} is not a JSON object; fix it before taking a backup`);
  if (result.removed.length > 0) options.onPlainSecretsLeftOut(result.removed);
  return { ...file, content: Buffer.from(result.text, 'utf8') };
}

function* walk(home: string, relative: string, beforeMs: number): Generator<BackupFile> {
  let entries;
  try {
    entries = readdirSync(join(home, relative), { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = `${relative}/${entry.name}`;
    if (NOT_BACKED_UP.includes(path)) continue;
    if (entry.isDirectory()) yield* walk(home, path, beforeMs);
    else if (entry.isFile()) yield* fileAt(home, path, beforeMs);
  }
}

function* fileAt(home: string, path: string, beforeMs: number): Generator<BackupFile> {
  const full = join(home, path);
  let stat;
  try {
    stat = lstatSync(full);
  } catch (err) {
    // Retention may remove a file between the listing and the read.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  if (!stat.isFile() || stat.mtimeMs > beforeMs) return;
  let content: Buffer;
  try {
    content = readFileSync(full);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  yield { path, mode: stat.mode & 0o777, content };
}

/** Whether a path read from a backup may be written into a data directory: one of the backed-up places, no escape. */
export function isRestorablePath(path: string): boolean {
  if (path.includes('\\') || path.includes('\0') || path.startsWith('/')) return false;
  const clean = normalize(path);
  if (clean !== path || clean.split(sep).includes('..')) return false;
  if (NOT_BACKED_UP.some((dir) => path === dir || path.startsWith(`${dir}/`))) return false;
  return (BACKED_UP_FILES as readonly string[]).includes(path) || BACKED_UP_DIRECTORIES.some((dir) => path.startsWith(`${dir}/`) && path.length > dir.length + 1);
}
