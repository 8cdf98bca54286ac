import type { Db } from './database.js';

/** A file a run produced (a screenshot); `path` is relative to the data directory's `artifacts/`. */
export interface ArtifactRow {
  id: string;
  org_id: string;
  run_id: string;
  kind: string;
  path: string;
  content_type: string;
  bytes: number;
  created_at: string;
}

export class ArtifactsStore {
  private readonly s;

  constructor(db: Db) {
    this.s = {
      insert: db.prepare(
        `INSERT INTO artifacts (id, org_id, run_id, kind, path, content_type, bytes, created_at)
         VALUES (@id, @org_id, @run_id, @kind, @path, @content_type, @bytes, @created_at)`,
      ),
      get: db.prepare<{ id: string }, ArtifactRow>('SELECT * FROM artifacts WHERE id = @id'),
    };
  }

  insert(row: ArtifactRow): void {
    this.s.insert.run(row);
  }

  /** By id alone: signed links carry no organisation, the signature is the authority. */
  get(id: string): ArtifactRow | undefined {
    return this.s.get.get({ id });
  }
}
