import type { Db } from './database.js';

/** What a cap check needs, read in one statement. */
export interface CapsSnapshot {
  /** The organisation's own daily cap, or null for the configured default. */
  orgDailyCapUsd: number | null;
  orgSpentTodayUsd: number;
  /** The key's monthly cap, or null without a cap (or without a key). */
  keyMonthlyCapUsd: number | null;
  keySpentThisMonthUsd: number;
}

interface SpendEntry {
  org_id: string;
  key_id: string | null;
  run_id: string;
  usd: number;
  created_at: string;
}

interface CapsRow {
  org_cap: number | null;
  org_spent: number | null;
  key_cap: number | null;
  key_spent: number | null;
}

export class SpendStore {
  private readonly s;

  constructor(db: Db) {
    this.s = {
      insert: db.prepare<SpendEntry>('INSERT INTO spend_entries (org_id, key_id, run_id, usd, created_at) VALUES (@org_id, @key_id, @run_id, @usd, @created_at)'),
      run: db.prepare<{ run_id: string }, { usd: number | null }>('SELECT SUM(usd) AS usd FROM spend_entries WHERE run_id = @run_id'),
      // Totals are kept per period by a trigger (migration 005).
      caps: db.prepare<{ org_id: string; key_id: string | null; day: string; month: string }, CapsRow>(
        `SELECT o.daily_cap_usd AS org_cap,
           (SELECT usd FROM spend_totals WHERE scope = 'org_day' AND id = o.id AND period = @day) AS org_spent,
           (SELECT monthly_cap_usd FROM api_keys WHERE id = @key_id) AS key_cap,
           (SELECT usd FROM spend_totals WHERE scope = 'key_month' AND id = @key_id AND period = @month) AS key_spent
         FROM orgs o WHERE o.id = @org_id`,
      ),
    };
  }

  record(entry: { orgId: string; keyId: string | null; runId: string; usd: number; at: string }): void {
    this.s.insert.run({ org_id: entry.orgId, key_id: entry.keyId, run_id: entry.runId, usd: entry.usd, created_at: entry.at });
  }

  /** Caps and spend of an organisation's UTC day (`YYYY-MM-DD`) and of a key's UTC month (`YYYY-MM`). */
  caps(orgId: string, keyId: string | null, day: string, month: string): CapsSnapshot {
    const row = this.s.caps.get({ org_id: orgId, key_id: keyId, day, month });
    return {
      orgDailyCapUsd: row?.org_cap ?? null,
      orgSpentTodayUsd: row?.org_spent ?? 0,
      keyMonthlyCapUsd: row?.key_cap ?? null,
      keySpentThisMonthUsd: row?.key_spent ?? 0,
    };
  }

  forRun(runId: string): number {
    return this.s.run.get({ run_id: runId })?.usd ?? 0;
  }
}
