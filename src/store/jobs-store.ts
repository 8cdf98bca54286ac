import type { Db } from './database.js';
import { toPage, type Page, type PageQuery } from './page.js';
import { ColumnUpdater } from './updates.js';

/** JSON members (schemas, connections, schedule) are stored as JSON text. */
export interface JobRow {
  id: string;
  org_id: string;
  project_id: string;
  name: string;
  description: string | null;
  prompt: string;
  model: string;
  input_schema: string | null;
  output_schema: string | null;
  connections: string | null;
  timeout_s: number | null;
  schedule: string | null;
  created_at: string;
  updated_at: string;
}

export const JOB_UPDATABLE = ['name', 'description', 'prompt', 'model', 'input_schema', 'output_schema', 'connections', 'timeout_s', 'schedule'] as const;

export class JobsStore {
  private readonly byId;
  private readonly pages;
  private readonly insertStmt;
  private readonly deleteStmt;
  private readonly scheduled;
  private readonly updater: ColumnUpdater;

  constructor(db: Db) {
    this.byId = db.prepare<[string, string], JobRow>('SELECT * FROM jobs WHERE id = ? AND org_id = ?');
    this.pages = {
      first: db.prepare<[string, number], JobRow>('SELECT * FROM jobs WHERE org_id = ? ORDER BY id DESC LIMIT ?'),
      after: db.prepare<[string, string, number], JobRow>('SELECT * FROM jobs WHERE org_id = ? AND id < ? ORDER BY id DESC LIMIT ?'),
      projectFirst: db.prepare<[string, string, number], JobRow>('SELECT * FROM jobs WHERE org_id = ? AND project_id = ? ORDER BY id DESC LIMIT ?'),
      projectAfter: db.prepare<[string, string, string, number], JobRow>(
        'SELECT * FROM jobs WHERE org_id = ? AND project_id = ? AND id < ? ORDER BY id DESC LIMIT ?',
      ),
    };
    this.insertStmt = db.prepare(
      `INSERT INTO jobs (id, org_id, project_id, name, description, prompt, model, input_schema, output_schema, connections, timeout_s, schedule, created_at, updated_at)
       VALUES (@id, @org_id, @project_id, @name, @description, @prompt, @model, @input_schema, @output_schema, @connections, @timeout_s, @schedule, @created_at, @updated_at)`,
    );
    this.deleteStmt = db.prepare('DELETE FROM jobs WHERE id = ? AND org_id = ?');
    this.scheduled = db.prepare<[], JobRow>('SELECT * FROM jobs WHERE schedule IS NOT NULL ORDER BY id');
    this.updater = new ColumnUpdater(db, 'jobs', new Set(JOB_UPDATABLE));
  }

  get(orgId: string, id: string): JobRow | undefined {
    return this.byId.get(id, orgId);
  }

  list(orgId: string, q: PageQuery & { projectId: string | null }): Page<JobRow> {
    const n = q.limit + 1;
    const rows =
      q.projectId === null
        ? q.cursor === null
          ? this.pages.first.all(orgId, n)
          : this.pages.after.all(orgId, q.cursor, n)
        : q.cursor === null
          ? this.pages.projectFirst.all(orgId, q.projectId, n)
          : this.pages.projectAfter.all(orgId, q.projectId, q.cursor, n);
    return toPage(rows, q.limit);
  }

  /** Every job that carries a schedule, across organisations (for the scheduler). */
  listScheduled(): JobRow[] {
    return this.scheduled.all();
  }

  insert(row: JobRow): void {
    this.insertStmt.run(row);
  }

  update(orgId: string, id: string, changes: Partial<JobRow> & { updated_at: string }): boolean {
    return this.updater.update(id, orgId, changes);
  }

  delete(orgId: string, id: string): boolean {
    return this.deleteStmt.run(id, orgId).changes > 0;
  }
}
