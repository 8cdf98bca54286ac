import type { Db } from './database.js';

export interface ApiKeyRow {
  id: string;
  org_id: string;
  name: string | null;
  secret_hash: Buffer;
  monthly_cap_usd: number | null;
  /** The max_cost_usd of the key's runs that give none (migration 036). */
  max_run_cost_usd: number | null;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

export class KeysStore {
  private readonly byId;
  private readonly list_;
  private readonly listOrg;
  private readonly insertStmt;
  private readonly revokeStmt;
  private readonly touchStmt;

  constructor(db: Db) {
    this.byId = db.prepare<{ id: string }, ApiKeyRow>('SELECT * FROM api_keys WHERE id = @id');
    this.list_ = db.prepare<[], ApiKeyRow>('SELECT * FROM api_keys ORDER BY id');
    this.listOrg = db.prepare<{ org_id: string }, ApiKeyRow>('SELECT * FROM api_keys WHERE org_id = @org_id ORDER BY id');
    this.insertStmt = db.prepare(
      'INSERT INTO api_keys (id, org_id, name, secret_hash, monthly_cap_usd, max_run_cost_usd, created_at, revoked_at, last_used_at) VALUES (@id, @org_id, @name, @secret_hash, @monthly_cap_usd, @max_run_cost_usd, @created_at, @revoked_at, @last_used_at)',
    );
    this.revokeStmt = db.prepare<{ at: string; id: string }>('UPDATE api_keys SET revoked_at = @at WHERE id = @id AND revoked_at IS NULL');
    this.touchStmt = db.prepare<{ at: string; id: string }>('UPDATE api_keys SET last_used_at = @at WHERE id = @id');
  }

  get(id: string): ApiKeyRow | undefined {
    return this.byId.get({ id });
  }

  list(orgId?: string): ApiKeyRow[] {
    return orgId === undefined ? this.list_.all() : this.listOrg.all({ org_id: orgId });
  }

  insert(row: ApiKeyRow): void {
    this.insertStmt.run(row);
  }

  revoke(id: string, at: string): boolean {
    return this.revokeStmt.run({ at, id }).changes > 0;
  }

  touch(id: string, at: string): void {
    this.touchStmt.run({ at, id });
  }
}
