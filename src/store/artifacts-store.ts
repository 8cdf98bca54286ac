import type { Db } from './database.js';

/**
 * A file a run produced: a screenshot, a recording, a trace, or one of the run's files (kind `file`: what its browser
 * downloaded and its code wrote under /workspace/out/, issue 23). `path` is relative to the data directory's
 * `artifacts/`; `name` (the sanitised name it is served under) and `sha256` are set for files only.
 */
export interface ArtifactRow {
  id: string;
  org_id: string;
  run_id: string;
  kind: string;
  path: string;
  content_type: string;
  bytes: number;
  created_at: string;
  name: string | null;
  sha256: string | null;
}

export class ArtifactsStore {
  private readonly s;

  constructor(db: Db) {
    this.s = {
      insert: db.prepare(
        `INSERT INTO artifacts (id, org_id, run_id, kind, path, content_type, bytes, created_at, name, sha256)
         VALUES (@id, @org_id, @run_id, @kind, @path, @content_type, @bytes, @created_at, @name, @sha256)`,
      ),
      get: db.prepare<{ id: string }, ArtifactRow>('SELECT * FROM artifacts WHERE id = @id'),
      filesOf: db.prepare<{ run_id: string }, ArtifactRow>(
        "SELECT * FROM artifacts INDEXED BY artifacts_run_files WHERE run_id = @run_id AND kind = 'file' ORDER BY name",
      ),
    };
  }

  insert(row: ArtifactRow): void {
    this.s.insert.run(row);
  }

  /** By id alone: signed links carry no organisation, the signature is the authority. */
  get(id: string): ArtifactRow | undefined {
    return this.s.get.get({ id });
  }

  /** A run's files (kind `file`), by name. */
  filesOf(runId: string): ArtifactRow[] {
    return this.s.filesOf.all({ run_id: runId });
  }
}
