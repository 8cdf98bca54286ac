import type { Db } from './database.js';

/** One version of a job's recipe (migration 029); `recipe` is the Recipe as JSON text (src/recipes/recipe.ts). */
export interface RecipeRow {
  id: string;
  org_id: string;
  job_id: string;
  version: number;
  source_run_id: string;
  recipe: string;
  created_at: string;
}

/**
 * Versions of jobs' recipes: the newest version is the job's recipe; deleting removes every version. Rows are found
 * by job id alone: callers have found the job in its organisation first (a job id is never another organisation's).
 */
export class RecipesStore {
  private readonly s;

  constructor(db: Db) {
    this.s = {
      latest: db.prepare<{ job_id: string }, RecipeRow>('SELECT * FROM recipes WHERE job_id = @job_id ORDER BY version DESC LIMIT 1'),
      insert: db.prepare<RecipeRow>(
        `INSERT INTO recipes (id, org_id, job_id, version, source_run_id, recipe, created_at)
         VALUES (@id, @org_id, @job_id, @version, @source_run_id, @recipe, @created_at)`,
      ),
      deleteAll: db.prepare<{ job_id: string }>('DELETE FROM recipes WHERE job_id = @job_id'),
    };
  }

  latest(jobId: string): RecipeRow | undefined {
    return this.s.latest.get({ job_id: jobId });
  }

  /**
   * Adds the next version (one more than the newest, or 1), answering the row. Its own statement pair runs inside
   * the caller's transaction, so two runs ending at once cannot take the same number (the UNIQUE key also holds).
   */
  addVersion(row: Omit<RecipeRow, 'version'>): RecipeRow {
    const version = (this.latest(row.job_id)?.version ?? 0) + 1;
    const stored = { ...row, version };
    this.s.insert.run(stored);
    return stored;
  }

  /** Answers how many versions were removed. */
  deleteAll(jobId: string): number {
    return this.s.deleteAll.run({ job_id: jobId }).changes;
  }
}
