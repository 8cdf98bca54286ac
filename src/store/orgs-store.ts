import type { Db } from './database.js';

export interface OrgRow {
  id: string;
  name: string;
  daily_cap_usd: number | null;
  created_at: string;
  updated_at: string;
}

export class OrgsStore {
  private readonly byId;
  private readonly byName;
  private readonly all;
  private readonly insertStmt;

  constructor(db: Db) {
    this.byId = db.prepare<{ id: string }, OrgRow>('SELECT * FROM orgs WHERE id = @id');
    this.byName = db.prepare<{ name: string }, OrgRow>('SELECT * FROM orgs WHERE name = @name');
    this.all = db.prepare<[], OrgRow>('SELECT * FROM orgs ORDER BY id');
    this.insertStmt = db.prepare('INSERT INTO orgs (id, name, daily_cap_usd, created_at, updated_at) VALUES (@id, @name, @daily_cap_usd, @created_at, @updated_at)');
  }

  get(id: string): OrgRow | undefined {
    return this.byId.get({ id });
  }

  getByName(name: string): OrgRow | undefined {
    return this.byName.get({ name });
  }

  list(): OrgRow[] {
    return this.all.all();
  }

  insert(row: OrgRow): void {
    this.insertStmt.run(row);
  }
}
