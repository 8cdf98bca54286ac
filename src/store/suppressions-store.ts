import type { Db } from './database.js';
import type { UnitOfWork } from './unit-of-work.js';

export type SuppressionReason = 'bounce' | 'complaint';

/** A recipient an organisation no longer sends to, after a hard bounce or a complaint; `address` is lower case. */
export interface SuppressionRow {
  org_id: string;
  address: string;
  reason: SuppressionReason;
  detail: string | null;
  email_id: string | null;
  created_at: string;
}

export class SuppressionsStore {
  private readonly s;

  constructor(private readonly db: Db) {
    this.s = {
      // A complaint outranks a bounce: it replaces one, never the other way round.
      upsert: db.prepare<SuppressionRow>(
        `INSERT INTO email_suppressions (org_id, address, reason, detail, email_id, created_at)
         VALUES (@org_id, @address, @reason, @detail, @email_id, @created_at)
         ON CONFLICT (org_id, address) DO UPDATE SET reason = excluded.reason, detail = excluded.detail, email_id = excluded.email_id
         WHERE excluded.reason = 'complaint' AND email_suppressions.reason = 'bounce'`,
      ),
      get: db.prepare<{ org_id: string; address: string }, SuppressionRow>('SELECT * FROM email_suppressions WHERE org_id = @org_id AND address = @address'),
      first: db.prepare<{ org_id: string; limit: number }, SuppressionRow>('SELECT * FROM email_suppressions WHERE org_id = @org_id ORDER BY address LIMIT @limit'),
      after: db.prepare<{ org_id: string; cursor: string; limit: number }, SuppressionRow>(
        'SELECT * FROM email_suppressions WHERE org_id = @org_id AND address > @cursor ORDER BY address LIMIT @limit',
      ),
      remove: db.prepare<{ org_id: string; address: string }>('DELETE FROM email_suppressions WHERE org_id = @org_id AND address = @address'),
    };
  }

  add(_uow: UnitOfWork, row: SuppressionRow): void {
    this.s.upsert.run(row);
  }

  get(orgId: string, address: string): SuppressionRow | undefined {
    return this.s.get.get({ org_id: orgId, address });
  }

  /** Which of `addresses` (lower case) the organisation suppresses. */
  suppressedAmong(orgId: string, addresses: readonly string[]): Set<string> {
    const found = new Set<string>();
    for (const address of addresses) if (this.s.get.get({ org_id: orgId, address }) !== undefined) found.add(address);
    return found;
  }

  /** A page in address order; `cursor` is the last address of the previous page. */
  list(orgId: string, limit: number, cursor: string | null): { items: SuppressionRow[]; hasMore: boolean } {
    const rows = cursor === null ? this.s.first.all({ org_id: orgId, limit: limit + 1 }) : this.s.after.all({ org_id: orgId, cursor, limit: limit + 1 });
    return { items: rows.slice(0, limit), hasMore: rows.length > limit };
  }

  remove(orgId: string, address: string): boolean {
    return this.s.remove.run({ org_id: orgId, address }).changes > 0;
  }
}
