import { randomBytes } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Clock } from '../clock.js';
import { readDaemonState } from '../runtime/daemon-state.js';
import { dataPaths } from '../runtime/paths.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../runtime/private-files.js';
import { findMasterKey, MASTER_KEY_ENV, MASTER_KEY_FILE } from '../secrets/master-key.js';
import { BACKUP_FORMAT, BackupArchive, type BackupMeta } from '../store/backup-archive.js';
import { latestSchemaVersion } from '../store/migrate.js';
import { BACKED_UP_DIRECTORIES, BACKED_UP_FILES, isRestorablePath } from './backed-up-files.js';
import { keyCheck } from './key-check.js';

export interface RestoreBackupOptions {
  home: string;
  env: NodeJS.ProcessEnv;
  file: string;
  /** Replace a database already in `home` (it is moved aside, never deleted). */
  force: boolean;
  clock: Clock;
}

export interface RestoreSummary {
  home: string;
  taken_at: string;
  schema_version: number;
  files: number;
  /** Where what the restore replaced was moved; null when there was nothing. */
  replaced_into: string | null;
  /**
   * Whether the backup's configuration (config.json and the sealed secrets, which go together) was left out because
   * `home` has one of its own.
   */
  kept_config: boolean;
  /** Whether a master key is at hand (env or file) and is the one the backup's secrets are sealed under. */
  master_key: 'matches' | 'missing' | 'unchecked';
}

/** Why a restore does not start; nothing in the data directory has been touched. */
export class RestoreRefusedError extends Error {
  override readonly name = 'RestoreRefusedError';
}

/**
 * Restores a backup into a data directory no daemon runs on. Everything is first built in a staging directory inside
 * `home` (so the final moves are renames on one file system); only then is what was there moved aside and the
 * restored database and files moved in. The database is migrated by the daemon's next start.
 */
export function restoreBackup(options: RestoreBackupOptions): RestoreSummary {
  const paths = dataPaths(options.home);
  const daemon = readDaemonState(paths.daemonState);
  if (daemon !== null) throw new RestoreRefusedError(`a daemon (pid ${daemon.pid}) runs on ${options.home}: stop it first (errand daemon stop)`);
  if (!existsSync(options.file)) throw new RestoreRefusedError(`there is no file at ${options.file}`);

  mkdirSync(options.home, { recursive: true, mode: PRIVATE_DIR_MODE });
  const staging = join(options.home, `.restore-${randomBytes(6).toString('hex')}`);
  mkdirSync(staging, { mode: PRIVATE_DIR_MODE });
  try {
    const database = join(staging, 'errand.db');
    copyFileSync(options.file, database);
    // The copy takes the backup file's mode, which a backup taken before issue 21 left readable by everyone.
    chmodSync(database, PRIVATE_FILE_MODE);
    const archive = BackupArchive.open(database);
    let files = 0;
    let meta;
    let masterKey: RestoreSummary['master_key'];
    try {
      meta = readMeta(archive, options.file);
      if (meta === null || meta.format !== BACKUP_FORMAT) throw new RestoreRefusedError(`${options.file} is not an Errand backup`);
      if (meta.schema_version > latestSchemaVersion()) {
        throw new RestoreRefusedError(`${options.file} was taken by a newer Errand (schema ${meta.schema_version}, this one knows up to ${latestSchemaVersion()})`);
      }
      const key = findMasterKey({ home: options.home, env: options.env });
      masterKey = meta.key_check === null ? 'unchecked' : key === null ? 'missing' : 'matches';
      if (meta.key_check !== null && key !== null && keyCheck(key) !== meta.key_check) {
        const where = options.env[MASTER_KEY_ENV] ? MASTER_KEY_ENV : join(options.home, MASTER_KEY_FILE);
        throw new RestoreRefusedError(`the master key in ${where} is not the one this backup's secrets are sealed under; put the right key in place first`);
      }
      for (const file of archive.files()) {
        if (!isRestorablePath(file.path)) throw new RestoreRefusedError(`${options.file} holds a file outside the places a backup holds: ${JSON.stringify(file.path)}`);
        const target = join(staging, file.path);
        mkdirSync(dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
        writeFileSync(target, file.content, { mode: file.mode & PRIVATE_FILE_MODE });
        files += 1;
      }
      archive.unwrap();
    } finally {
      archive.close();
    }

    const present = [paths.database, `${paths.database}-wal`, `${paths.database}-shm`, ...BACKED_UP_DIRECTORIES.map((d) => join(options.home, d))].filter((p) =>
      existsSync(p),
    );
    if (present.some((p) => p.startsWith(paths.database)) && !options.force) {
      throw new RestoreRefusedError(`${options.home} already holds a database; --force moves it aside and restores over it`);
    }
    let replacedInto: string | null = null;
    if (present.length > 0) {
      replacedInto = join(options.home, `replaced-${new Date(options.clock.now()).toISOString().replace(/[:.]/g, '-')}`);
      mkdirSync(replacedInto, { mode: PRIVATE_DIR_MODE });
      for (const p of present) {
        const aside = join(replacedInto, p.slice(options.home.length + 1));
        mkdirSync(dirname(aside), { recursive: true, mode: PRIVATE_DIR_MODE });
        renameSync(p, aside);
      }
    }
    renameSync(database, paths.database);
    for (const dir of BACKED_UP_DIRECTORIES) {
      if (!existsSync(join(staging, dir))) continue;
      mkdirSync(dirname(join(options.home, dir)), { recursive: true, mode: PRIVATE_DIR_MODE });
      renameSync(join(staging, dir), join(options.home, dir));
    }
    const restoredConfig = BACKED_UP_FILES.filter((name) => existsSync(join(staging, name)));
    const keptConfig = restoredConfig.length > 0 && BACKED_UP_FILES.some((name) => existsSync(join(options.home, name)));
    if (!keptConfig) for (const name of restoredConfig) renameSync(join(staging, name), join(options.home, name));
    return { home: options.home, taken_at: meta.taken_at, schema_version: meta.schema_version, files, replaced_into: replacedInto, kept_config: keptConfig, master_key: masterKey };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

function readMeta(archive: BackupArchive, file: string): BackupMeta | null {
  try {
    return archive.meta();
  } catch (err) {
    throw new RestoreRefusedError(`${file} is not an Errand backup (${(err as Error).message})`);
  }
}
