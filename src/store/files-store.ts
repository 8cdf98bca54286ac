import type { Db } from './database.js';
import { toPage, type Page, type PageQuery } from './page.js';
import type { UnitOfWork } from './unit-of-work.js';

/** An uploaded file (POST /v1/files); `path` is relative to the data directory's `files/`. */
export interface FileRow {
  id: string;
  org_id: string;
  name: string;
  path: string;
  content_type: string;
  bytes: number;
  sha256: string;
  created_at: string;
}

/** A queued or running run that names a file among its input files. */
export interface FileUser {
  run_id: string;
  status: string;
}

export class FilesStore {
  private readonly s;

  constructor(db: Db) {
    this.s = {
      insert: db.prepare<FileRow>(
        `INSERT INTO files (id, org_id, name, path, content_type, bytes, sha256, created_at)
         VALUES (@id, @org_id, @name, @path, @content_type, @bytes, @sha256, @created_at)`,
      ),
      get: db.prepare<{ id: string; org_id: string }, FileRow>('SELECT * FROM files WHERE id = @id AND org_id = @org_id'),
      pageFirst: db.prepare<{ org_id: string; limit: number }, FileRow>('SELECT * FROM files WHERE org_id = @org_id ORDER BY id DESC LIMIT @limit'),
      pageAfter: db.prepare<{ org_id: string; cursor: string | null; limit: number }, FileRow>(
        'SELECT * FROM files WHERE org_id = @org_id AND id < @cursor ORDER BY id DESC LIMIT @limit',
      ),
      contentFirst: db.prepare<{ org_id: string; sha256: string; limit: number }, FileRow>(
        'SELECT * FROM files WHERE org_id = @org_id AND sha256 = @sha256 ORDER BY id DESC LIMIT @limit',
      ),
      contentAfter: db.prepare<{ org_id: string; sha256: string; cursor: string | null; limit: number }, FileRow>(
        'SELECT * FROM files WHERE org_id = @org_id AND sha256 = @sha256 AND id < @cursor ORDER BY id DESC LIMIT @limit',
      ),
      usedBytes: db.prepare<{ org_id: string }, number>('SELECT COALESCE(SUM(bytes), 0) FROM files WHERE org_id = @org_id').pluck(),
      delete: db.prepare<{ id: string; org_id: string }>('DELETE FROM files WHERE id = @id AND org_id = @org_id'),
      activeUsers: db.prepare<{ file_id: string }, FileUser>(
        `SELECT r.id AS run_id, r.status FROM run_input_files f JOIN runs r ON r.id = f.run_id
          WHERE f.file_id = @file_id AND r.status IN ('queued', 'running') ORDER BY f.run_id LIMIT 5`,
      ),
      addInput: db.prepare<{ run_id: string; file_id: string; position: number }>(
        'INSERT INTO run_input_files (run_id, file_id, position) VALUES (@run_id, @file_id, @position)',
      ),
      inputsOf: db.prepare<{ run_id: string }, FileRow>(
        `SELECT files.* FROM run_input_files i JOIN files ON files.id = i.file_id WHERE i.run_id = @run_id ORDER BY i.position`,
      ),
      inputIdsOf: db.prepare<{ run_id: string }, string>('SELECT file_id FROM run_input_files WHERE run_id = @run_id ORDER BY position').pluck(),
    };
  }

  get(orgId: string, id: string): FileRow | undefined {
    return this.s.get.get({ id, org_id: orgId });
  }

  /** The organisation's files, newest first; with `sha256`, only those of that content (a walk of its files). */
  list(orgId: string, q: PageQuery, sha256: string | null = null): Page<FileRow> {
    const params = { org_id: orgId, cursor: q.cursor, limit: q.limit + 1 };
    let rows: FileRow[];
    if (sha256 === null) rows = q.cursor === null ? this.s.pageFirst.all(params) : this.s.pageAfter.all(params);
    else rows = q.cursor === null ? this.s.contentFirst.all({ ...params, sha256 }) : this.s.contentAfter.all({ ...params, sha256 });
    return toPage(rows, q.limit);
  }

  /** The bytes the organisation's files hold, against `files.org_quota_mb`. */
  usedBytes(orgId: string): number {
    return this.s.usedBytes.get({ org_id: orgId }) ?? 0;
  }

  insert(_uow: UnitOfWork, row: FileRow): void {
    this.s.insert.run(row);
  }

  /** Queued or running runs that name the file (at most a few, for the refusal's message). */
  activeUsers(_uow: UnitOfWork, fileId: string): FileUser[] {
    return this.s.activeUsers.all({ file_id: fileId });
  }

  /** Deletes the row; ended runs that named it keep their record of it (run_input_files). */
  delete(_uow: UnitOfWork, orgId: string, id: string): boolean {
    return this.s.delete.run({ id, org_id: orgId }).changes > 0;
  }

  /** Records a new run's input files, in the order its request gave them. */
  addRunInputs(_uow: UnitOfWork, runId: string, fileIds: readonly string[]): void {
    fileIds.forEach((fileId, position) => this.s.addInput.run({ run_id: runId, file_id: fileId, position }));
  }

  /** A run's input files that still exist, in their order (a queued or running run's all do: see activeUsers). */
  inputsOf(runId: string): FileRow[] {
    return this.s.inputsOf.all({ run_id: runId });
  }

  /** The ids of a run's input files, in their order (a rerun names them again). */
  inputIdsOf(runId: string): string[] {
    return this.s.inputIdsOf.all({ run_id: runId });
  }
}
