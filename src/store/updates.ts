import type { Db } from './database.js';
import type Database from 'better-sqlite3';

/**
 * Partial updates (PATCH) of whitelisted columns. Statements are prepared once per column set and cached,
 * so a PATCH costs the same as a hand-written UPDATE.
 */
export class ColumnUpdater {
  private readonly cache = new Map<string, Database.Statement>();

  constructor(
    private readonly db: Db,
    private readonly table: string,
    private readonly columns: ReadonlySet<string>,
  ) {}

  update(id: string, orgId: string, changes: Record<string, unknown>): boolean {
    const cols = Object.keys(changes).filter((c) => this.columns.has(c)).sort();
    const sig = cols.join(',');
    let stmt = this.cache.get(sig);
    if (!stmt) {
      const sets = [...cols.map((c) => `${c} = @${c}`)].join(', ');
      stmt = this.db.prepare(`UPDATE ${this.table} SET ${sets}${sets ? ', ' : ''}updated_at = @updated_at WHERE id = @id AND org_id = @org_id`);
      this.cache.set(sig, stmt);
    }
    const params: Record<string, unknown> = { id, org_id: orgId, updated_at: changes.updated_at };
    for (const c of cols) params[c] = changes[c];
    return stmt.run(params).changes > 0;
  }
}
