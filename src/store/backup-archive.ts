import Database from 'better-sqlite3';
import type { Db } from './database.js';

/**
 * A backup is one SQLite file: a page-for-page copy of the database made with SQLite's online backup, so every table
 * (whichever migration added it) is in it, plus two tables of its own: what the backup is (`errand_backup`) and the
 * files of the data directory taken with it (`errand_backup_files`). `sqlite3 backup.db .tables` shows it all.
 */
const META_TABLE = 'errand_backup';
const FILES_TABLE = 'errand_backup_files';

export const BACKUP_FORMAT = '1';

export interface BackupMeta {
  format: string;
  taken_at: string;
  /** The database's migration number (`user_version`) when it was copied. */
  schema_version: number;
  /** A check value of the master key the database's secrets are sealed under; null when there was no key. */
  key_check: string | null;
}

export interface BackupFile {
  /** Relative to the data directory, with `/` separators. */
  path: string;
  mode: number;
  content: Buffer;
}

/**
 * Copies `source` into a new file at `path`, consistent as of one moment: the first step only counts the pages, the
 * second copies them all in one read transaction, which in WAL mode never blocks the daemon's writers (and a write
 * between the two steps only makes the second start over).
 */
export async function copyDatabase(source: Db, path: string): Promise<void> {
  await source.backup(path, { progress: () => 0x7fffffff });
}

export class BackupArchive {
  private constructor(private readonly db: Db) {}

  /** Turns a fresh copy made by `copyDatabase` into an archive: one self-contained file, ready for files. */
  static create(path: string, meta: Omit<BackupMeta, 'schema_version' | 'format'>): BackupArchive {
    const db = new Database(path, { fileMustExist: true });
    db.pragma('journal_mode = DELETE');
    const schemaVersion = db.pragma('user_version', { simple: true }) as number;
    db.exec(`CREATE TABLE ${META_TABLE} (key TEXT PRIMARY KEY, value TEXT) STRICT;
             CREATE TABLE ${FILES_TABLE} (path TEXT PRIMARY KEY, mode INTEGER NOT NULL, content BLOB NOT NULL) STRICT;`);
    const put = db.prepare<{ key: string; value: string | null }>(`INSERT INTO ${META_TABLE} (key, value) VALUES (@key, @value)`);
    const full: BackupMeta = { format: BACKUP_FORMAT, schema_version: schemaVersion, ...meta };
    db.transaction(() => {
      for (const [key, value] of Object.entries(full)) put.run({ key, value: value === null ? null : String(value) });
    })();
    return new BackupArchive(db);
  }

  /** Opens an archive (a copy of one, to restore from it); `meta()` says whether it is one. */
  static open(path: string): BackupArchive {
    return new BackupArchive(new Database(path, { fileMustExist: true }));
  }

  addFiles(files: Iterable<BackupFile>): void {
    const insert = this.db.prepare<BackupFile>(`INSERT INTO ${FILES_TABLE} (path, mode, content) VALUES (@path, @mode, @content)`);
    this.db.transaction(() => {
      for (const file of files) insert.run(file);
    })();
  }

  /** What the archive says of itself; null when the file is an SQLite database but no Errand backup. */
  meta(): BackupMeta | null {
    const known = this.db.prepare<{ name: string }, number>(`SELECT COUNT(*) FROM sqlite_schema WHERE type = 'table' AND name = @name`).pluck();
    if (known.get({ name: META_TABLE }) !== 1 || known.get({ name: FILES_TABLE }) !== 1) return null;
    const rows = this.db.prepare<[], { key: string; value: string | null }>(`SELECT key, value FROM ${META_TABLE}`).all();
    const m = new Map(rows.map((r) => [r.key, r.value]));
    return { format: m.get('format') ?? '', taken_at: m.get('taken_at') ?? '', schema_version: Number(m.get('schema_version')), key_check: m.get('key_check') ?? null };
  }

  /** The archived files, one at a time (screenshots can add up to more than fits in memory at once). */
  *files(): Generator<BackupFile> {
    const next = this.db.prepare<{ after: string }, BackupFile>(`SELECT path, mode, content FROM ${FILES_TABLE} WHERE path > @after ORDER BY path LIMIT 1`);
    let after = '';
    for (let file = next.get({ after }); file !== undefined; file = next.get({ after })) {
      yield file;
      after = file.path;
    }
  }

  /** Leaves only the database: drops the archive's own tables and rewrites the file without their pages. */
  unwrap(): void {
    this.db.exec(`DROP TABLE ${FILES_TABLE}; DROP TABLE ${META_TABLE};`);
    this.db.exec('VACUUM');
  }

  close(): void {
    this.db.close();
  }
}
