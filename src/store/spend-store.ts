import type { Db } from './database.js';

export class SpendStore {
  private readonly s;

  constructor(db: Db) {
    this.s = {
      insert: db.prepare('INSERT INTO spend_entries (org_id, key_id, run_id, usd, created_at) VALUES (?, ?, ?, ?, ?)'),
      key: db.prepare<[string, string], { usd: number | null }>('SELECT SUM(usd) AS usd FROM spend_entries WHERE key_id = ? AND created_at >= ?'),
      org: db.prepare<[string, string], { usd: number | null }>('SELECT SUM(usd) AS usd FROM spend_entries WHERE org_id = ? AND created_at >= ?'),
      run: db.prepare<[string], { usd: number | null }>('SELECT SUM(usd) AS usd FROM spend_entries WHERE run_id = ?'),
    };
  }

  record(entry: { orgId: string; keyId: string | null; runId: string; usd: number; at: string }): void {
    this.s.insert.run(entry.orgId, entry.keyId, entry.runId, entry.usd, entry.at);
  }

  keySince(keyId: string, sinceIso: string): number {
    return this.s.key.get(keyId, sinceIso)?.usd ?? 0;
  }

  orgSince(orgId: string, sinceIso: string): number {
    return this.s.org.get(orgId, sinceIso)?.usd ?? 0;
  }

  forRun(runId: string): number {
    return this.s.run.get(runId)?.usd ?? 0;
  }
}
