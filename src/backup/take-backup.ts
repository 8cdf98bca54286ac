import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isoTime, type Clock } from '../clock.js';
import { dataPaths } from '../runtime/paths.js';
import { PRIVATE_FILE_MODE } from '../runtime/private-files.js';
import { findMasterKey } from '../secrets/master-key.js';
import { BackupArchive, copyDatabase } from '../store/backup-archive.js';
import { openExistingDatabase } from '../store/database.js';
import { backedUpFiles } from './backed-up-files.js';
import { keyCheck } from './key-check.js';

export interface TakeBackupOptions {
  home: string;
  env: NodeJS.ProcessEnv;
  /** Where the backup goes; it is written beside it under another name and renamed when complete. */
  file: string;
  clock: Clock;
}

export interface BackupSummary {
  file: string;
  taken_at: string;
  schema_version: number;
  database_bytes: number;
  files: number;
  file_bytes: number;
  bytes: number;
  master_key_check: boolean;
  /** Secret keys `config.json` held in plain text, which the backup left out (`errand config seal` keeps them sealed). */
  plain_secrets_left_out: string[];
}

/**
 * Takes a backup of a data directory, with or without a daemon running on it: the database as of the moment the
 * copy starts (every run that existed then is in it), then the files of `backedUpFiles` last written before the
 * copy ends, into one file, mode 0600 from its first byte (it holds every run and email). The master key is never
 * in it, nor any secret in plain text.
 */
export async function takeBackup(options: TakeBackupOptions): Promise<BackupSummary> {
  const paths = dataPaths(options.home);
  if (!existsSync(paths.database)) throw new Error(`there is no database at ${paths.database}`);
  const partial = join(dirname(options.file), `.${randomBytes(6).toString('hex')}.errand-backup.partial`);
  const startedAt = options.clock.now();
  const source = openExistingDatabase(paths.database);
  try {
    // SQLite would create the copy with the umask's mode (0644, commonly); an empty file is an empty database to it.
    closeSync(openSync(partial, 'wx', PRIVATE_FILE_MODE));
    await copyDatabase(source, partial);
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  } finally {
    source.close();
  }
  // Files written up to the end of the copy: every file a copied row names was written before its row committed.
  const copiedAt = options.clock.now();
  try {
    const databaseBytes = statSync(partial).size;
    const key = findMasterKey({ home: options.home, env: options.env });
    const archive = BackupArchive.create(partial, { taken_at: isoTime(startedAt), key_check: key === null ? null : keyCheck(key) });
    let files = 0;
    let fileBytes = 0;
    let plainSecretsLeftOut: string[] = [];
    let schemaVersion: number;
    try {
      const taken = backedUpFiles(options.home, { beforeMs: copiedAt, onPlainSecretsLeftOut: (keys) => (plainSecretsLeftOut = keys) });
      archive.addFiles(
        (function* counted() {
          for (const file of taken) {
            files += 1;
            fileBytes += file.content.length;
            yield file;
          }
        })(),
      );
      schemaVersion = archive.meta()!.schema_version;
    } finally {
      archive.close();
    }
    renameSync(partial, options.file);
    return {
      file: options.file,
      taken_at: isoTime(startedAt),
      schema_version: schemaVersion,
      database_bytes: databaseBytes,
      files,
      file_bytes: fileBytes,
      bytes: statSync(options.file).size,
      master_key_check: key !== null,
      plain_secrets_left_out: plainSecretsLeftOut,
    };
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  }
}
