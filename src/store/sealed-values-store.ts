import type Database from 'better-sqlite3';
import type { Db } from './database.js';
import type { UnitOfWork } from './unit-of-work.js';

/**
 * Every column that holds a value sealed by `SecretBox`, with the SQL expression (over its row) of its associated
 * data. A table that stores a secret adds its column here, so that `errand secrets rotate-key` re-encrypts it too;
 * a test checks that every `*_enc` column of the schema is listed.
 */
export const SEALED_COLUMNS = [
  // As signingSecretContext (webhooks/signing-secrets.ts) binds them: an identity's are bound to their purpose too.
  { table: 'webhook_secrets', id: 'id', column: 'secret_enc', context: "CASE signer WHEN 'email' THEN org_id || ':email-identity' ELSE org_id END" },
  { table: 'connections', id: 'id', column: 'secret_enc', context: 'id' },
  { table: 'connection_links', id: 'id', column: 'verifier_enc', context: 'id' },
  { table: 'profiles', id: 'id', column: 'state_enc', context: 'id' },
] as const;

export type SealedColumn = (typeof SEALED_COLUMNS)[number];

export interface SealedValue {
  id: string | number;
  sealed: string;
  context: string;
}

/** Reads and rewrites sealed values column by column, for the master key's rotation. */
export class SealedValuesStore {
  private readonly s: { read: Database.Statement<[], SealedValue>; write: Database.Statement<{ id: string | number; sealed: string; was: string }> }[];

  constructor(db: Db) {
    this.s = SEALED_COLUMNS.map((c) => ({
      read: db.prepare<[], SealedValue>(`SELECT ${c.id} AS id, ${c.column} AS sealed, ${c.context} AS context FROM ${c.table} WHERE ${c.column} IS NOT NULL`),
      write: db.prepare(`UPDATE ${c.table} SET ${c.column} = @sealed WHERE ${c.id} = @id AND ${c.column} = @was`),
    }));
  }

  all(_uow: UnitOfWork, column: SealedColumn): SealedValue[] {
    return this.statements(column).read.all();
  }

  /** Replaces one sealed value, unless it changed since it was read (then false). */
  replace(_uow: UnitOfWork, column: SealedColumn, value: SealedValue, sealed: string): boolean {
    return this.statements(column).write.run({ id: value.id, sealed, was: value.sealed }).changes > 0;
  }

  private statements(column: SealedColumn): (typeof this.s)[number] {
    return this.s[SEALED_COLUMNS.indexOf(column)]!;
  }
}
