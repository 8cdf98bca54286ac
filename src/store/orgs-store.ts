import type { Db } from './database.js';

export interface OrgRow {
  id: string;
  name: string;
  daily_cap_usd: number | null;
  /** Set on a test-mode twin: the live organisation it mirrors (migration 030). */
  live_org_id: string | null;
  created_at: string;
  updated_at: string;
}

export class OrgsStore {
  private readonly byId;
  private readonly byName;
  private readonly all;
  private readonly twin;
  private readonly insertStmt;

  constructor(db: Db) {
    this.byId = db.prepare<{ id: string }, OrgRow>('SELECT * FROM orgs WHERE id = @id');
    this.byName = db.prepare<{ name: string }, OrgRow>('SELECT * FROM orgs WHERE name = @name');
    this.all = db.prepare<[], OrgRow>('SELECT * FROM orgs WHERE live_org_id IS NULL ORDER BY id');
    this.twin = db.prepare<{ live_org_id: string }, OrgRow>('SELECT * FROM orgs WHERE live_org_id = @live_org_id');
    this.insertStmt = db.prepare(
      'INSERT INTO orgs (id, name, daily_cap_usd, live_org_id, created_at, updated_at) VALUES (@id, @name, @daily_cap_usd, @live_org_id, @created_at, @updated_at)',
    );
  }

  get(id: string): OrgRow | undefined {
    return this.byId.get({ id });
  }

  getByName(name: string): OrgRow | undefined {
    return this.byName.get({ name });
  }

  /** The test-mode twin of a live organisation, when it has one. */
  testTwin(liveOrgId: string): OrgRow | undefined {
    return this.twin.get({ live_org_id: liveOrgId });
  }

  /** The live organisations (their test-mode twins are reached through testTwin). */
  list(): OrgRow[] {
    return this.all.all();
  }

  insert(row: OrgRow): void {
    this.insertStmt.run(row);
  }
}
