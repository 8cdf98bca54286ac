import type { Db } from './database.js';

export interface IdempotencyRow {
  org_id: string;
  scope: string;
  key: string;
  request_hash: string;
  run_id: string;
  created_at: number;
}

export class IdempotencyStore {
  private readonly s;

  constructor(db: Db) {
    this.s = {
      get: db.prepare<{ org_id: string; scope: string; key: string; since: number }, IdempotencyRow>(
        'SELECT * FROM idempotency_keys WHERE org_id = @org_id AND scope = @scope AND key = @key AND created_at >= @since',
      ),
      put: db.prepare(
        'INSERT OR REPLACE INTO idempotency_keys (org_id, scope, key, request_hash, run_id, created_at) VALUES (@org_id, @scope, @key, @request_hash, @run_id, @created_at)',
      ),
    };
  }

  /** A key recorded since `sinceMs`; older ones count as expired. */
  find(orgId: string, scope: string, key: string, sinceMs: number): IdempotencyRow | undefined {
    return this.s.get.get({ org_id: orgId, scope, key, since: sinceMs });
  }

  put(row: IdempotencyRow): void {
    this.s.put.run(row);
  }
}
