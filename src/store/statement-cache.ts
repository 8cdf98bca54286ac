import type Database from 'better-sqlite3';
import type { Db } from './database.js';

/** Statements whose text is built at run time (an insert of the columns given, a patch), prepared once per text. */
export class StatementCache {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(private readonly db: Db) {}

  get(sql: string): Database.Statement {
    let stmt = this.statements.get(sql);
    if (stmt === undefined) {
      stmt = this.db.prepare(sql);
      this.statements.set(sql, stmt);
    }
    return stmt;
  }

  /** `UPDATE <table> SET <names> WHERE <keyColumn> = @key`, bound from `values` and `key`. */
  patch(table: string, keyColumn: string, names: readonly string[], values: Record<string, unknown>, key: string): number {
    if (names.length === 0) return 0;
    const bound: Record<string, unknown> = { key };
    for (const n of names) bound[n] = values[n];
    return this.get(`UPDATE ${table} SET ${names.map((n) => `${n} = @${n}`).join(', ')} WHERE ${keyColumn} = @key`).run(bound).changes;
  }
}
