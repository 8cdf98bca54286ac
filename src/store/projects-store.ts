import type { Db } from './database.js';
import { toPage, type Page, type PageQuery } from './page.js';
import { ColumnUpdater } from './updates.js';

export interface ProjectRow {
  id: string;
  org_id: string;
  name: string;
  description: string | null;
  is_default: number;
  created_at: string;
  updated_at: string;
}

export class ProjectsStore {
  private readonly byId;
  private readonly defaultOf;
  private readonly pageFirst;
  private readonly pageAfter;
  private readonly insertStmt;
  private readonly deleteStmt;
  private readonly updater: ColumnUpdater;

  constructor(db: Db) {
    this.byId = db.prepare<{ id: string; org_id: string }, ProjectRow>('SELECT * FROM projects WHERE id = @id AND org_id = @org_id');
    this.defaultOf = db.prepare<{ org_id: string }, ProjectRow>('SELECT * FROM projects WHERE org_id = @org_id AND is_default = 1');
    this.pageFirst = db.prepare<{ org_id: string; limit: number }, ProjectRow>('SELECT * FROM projects WHERE org_id = @org_id ORDER BY id DESC LIMIT @limit');
    this.pageAfter = db.prepare<{ org_id: string; cursor: string | null; limit: number }, ProjectRow>('SELECT * FROM projects WHERE org_id = @org_id AND id < @cursor ORDER BY id DESC LIMIT @limit');
    this.insertStmt = db.prepare(
      'INSERT INTO projects (id, org_id, name, description, is_default, created_at, updated_at) VALUES (@id, @org_id, @name, @description, @is_default, @created_at, @updated_at)',
    );
    this.deleteStmt = db.prepare<{ id: string; org_id: string }>('DELETE FROM projects WHERE id = @id AND org_id = @org_id');
    this.updater = new ColumnUpdater(db, 'projects', new Set(['name', 'description']));
  }

  get(orgId: string, id: string): ProjectRow | undefined {
    return this.byId.get({ id, org_id: orgId });
  }

  getDefault(orgId: string): ProjectRow | undefined {
    return this.defaultOf.get({ org_id: orgId });
  }

  list(orgId: string, q: PageQuery): Page<ProjectRow> {
    const params = { org_id: orgId, cursor: q.cursor, limit: q.limit + 1 };
    const rows = q.cursor === null ? this.pageFirst.all(params) : this.pageAfter.all(params);
    return toPage(rows, q.limit);
  }

  insert(row: ProjectRow): void {
    this.insertStmt.run(row);
  }

  update(orgId: string, id: string, changes: Partial<ProjectRow> & { updated_at: string }): boolean {
    return this.updater.update(id, orgId, changes);
  }

  /** Deletes the project; its jobs go with it by cascade. */
  delete(orgId: string, id: string): boolean {
    return this.deleteStmt.run({ id, org_id: orgId }).changes > 0;
  }
}
