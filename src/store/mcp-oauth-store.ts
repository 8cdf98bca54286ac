import type Database from 'better-sqlite3';
import type { Db } from './database.js';
import {
  mcpClientColumns,
  mcpCodeColumns,
  mcpConsentColumns,
  mcpGrantColumns,
  mcpTokenColumns,
  type McpClientRow,
  type McpCodeRow,
  type McpConsentRow,
  type McpGrantRow,
  type McpTokenRow,
} from './mcp-oauth-tables.js';
import type { UnitOfWork } from './unit-of-work.js';

/** A grant as `errand mcp clients` lists it: with its client's name. */
export interface McpGrantListing extends McpGrantRow {
  client_name: string | null;
}

/**
 * The MCP authorization server's tables: clients, consents waiting for a decision, grants, authorization codes and
 * tokens. Secrets are looked up by their hash. Writes that must be atomic with others (a code's use and the tokens
 * it buys, a refresh token's rotation) take the unit of work of the caller's transaction.
 */
export class McpOAuthStore {
  private readonly s;

  constructor(private readonly db: Db) {
    const grantList = mcpGrantColumns.names.map((n) => `g.${n}`).join(', ');
    this.s = {
      client: raw(db, `SELECT ${mcpClientColumns.selectList} FROM mcp_clients WHERE id = @id`),
      // Dynamic registration is open to anyone: the clients nobody signed in with are a bounded set (retention drops
      // them after a day; registration drops the oldest beyond mcp.max_unused_clients), read through a partial index.
      unusedClients: db.prepare<[], number>('SELECT COUNT(*) FROM mcp_clients WHERE signed_in_at IS NULL').pluck(),
      dropOldestUnused: db.prepare<{ n: number }>(
        'DELETE FROM mcp_clients WHERE id IN (SELECT id FROM mcp_clients WHERE signed_in_at IS NULL ORDER BY id LIMIT @n)',
      ),
      signedIn: db.prepare<{ id: string; at: string }>('UPDATE mcp_clients SET signed_in_at = @at WHERE id = @id AND signed_in_at IS NULL'),
      consentByHandle: raw(db, `SELECT ${mcpConsentColumns.selectList} FROM mcp_consents WHERE handle_hash = @hash AND expires_at > @now`),
      consentByUserCode: raw(db, `SELECT ${mcpConsentColumns.selectList} FROM mcp_consents WHERE user_code_hash = @hash AND expires_at > @now`),
      approveConsent: db.prepare<{ hash: Buffer; key_id: string; now: number }>(
        'UPDATE mcp_consents SET approved_key_id = @key_id WHERE handle_hash = @hash AND approved_key_id IS NULL AND expires_at > @now',
      ),
      deleteConsent: db.prepare<{ hash: Buffer }>('DELETE FROM mcp_consents WHERE handle_hash = @hash'),
      consentsOfClient: db.prepare<{ client_id: string }, number>('SELECT COUNT(*) FROM mcp_consents WHERE client_id = @client_id').pluck(),
      dropOldestConsents: db.prepare<{ client_id: string; n: number }>(
        'DELETE FROM mcp_consents WHERE rowid IN (SELECT rowid FROM mcp_consents WHERE client_id = @client_id ORDER BY expires_at LIMIT @n)',
      ),
      grant: raw(db, `SELECT ${mcpGrantColumns.selectList} FROM mcp_grants WHERE id = @id`),
      grants: raw(db, `SELECT ${grantList}, c.name FROM mcp_grants g JOIN mcp_clients c ON c.id = g.client_id ORDER BY g.id`),
      grantsOfOrg: raw(db, `SELECT ${grantList}, c.name FROM mcp_grants g JOIN mcp_clients c ON c.id = g.client_id WHERE g.org_id = @org_id ORDER BY g.id`),
      revokeGrant: db.prepare<{ id: string; at: string; why: string }>('UPDATE mcp_grants SET revoked_at = @at, revoked_why = @why WHERE id = @id AND revoked_at IS NULL'),
      revokeClient: db.prepare<{ client_id: string; at: string; why: string }>(
        'UPDATE mcp_grants SET revoked_at = @at, revoked_why = @why WHERE client_id = @client_id AND revoked_at IS NULL',
      ),
      tokensOfGrant: db.prepare<{ grant_id: string }>('DELETE FROM mcp_tokens WHERE grant_id = @grant_id'),
      tokensOfClient: db.prepare<{ client_id: string }>('DELETE FROM mcp_tokens WHERE grant_id IN (SELECT id FROM mcp_grants WHERE client_id = @client_id)'),
      touchGrant: db.prepare<{ id: string; at: string }>('UPDATE mcp_grants SET last_token_at = @at WHERE id = @id'),
      code: raw(db, `SELECT ${mcpCodeColumns.selectList} FROM mcp_codes WHERE code_hash = @hash`),
      useCode: db.prepare<{ hash: Buffer; now: number }>('UPDATE mcp_codes SET used_at = @now WHERE code_hash = @hash AND used_at IS NULL'),
      // Used codes are kept until they expire, so that a second use is recognised as one.
      purgeCodes: db.prepare<{ now: number }>('DELETE FROM mcp_codes WHERE expires_at <= @now'),
      token: raw(db, `SELECT ${mcpTokenColumns.selectList} FROM mcp_tokens WHERE token_hash = @hash`),
      useToken: db.prepare<{ hash: Buffer; now: number }>('UPDATE mcp_tokens SET used_at = @now WHERE token_hash = @hash AND used_at IS NULL'),
      deleteToken: db.prepare<{ hash: Buffer }>('DELETE FROM mcp_tokens WHERE token_hash = @hash'),
      purgeTokens: db.prepare<{ now: number }>('DELETE FROM mcp_tokens WHERE expires_at <= @now'),
    };
  }

  insertClient(_uow: UnitOfWork, row: McpClientRow): void {
    this.db.prepare(mcpClientColumns.insertSql(row)).run(row);
  }

  client(id: string): McpClientRow | undefined {
    const values = this.s.client.get({ id });
    return values && mcpClientColumns.row(values);
  }

  /** Clients nobody has signed in with. */
  unusedClients(): number {
    return this.s.unusedClients.get()!;
  }

  /** Deletes the `n` oldest clients nobody has signed in with, and their sign-ins under way. */
  dropOldestUnusedClients(_uow: UnitOfWork, n: number): number {
    return this.s.dropOldestUnused.run({ n }).changes;
  }

  insertConsent(_uow: UnitOfWork, row: McpConsentRow): void {
    this.db.prepare(mcpConsentColumns.insertSql(row)).run(row);
  }

  /** The client's sign-ins, under way or expired and not purged yet. */
  consentsOfClient(clientId: string): number {
    return this.s.consentsOfClient.get({ client_id: clientId })!;
  }

  /** Ends the client's `n` sign-ins that expire first (the oldest). */
  dropOldestConsents(_uow: UnitOfWork, clientId: string, n: number): void {
    this.s.dropOldestConsents.run({ client_id: clientId, n });
  }

  consentByHandle(hash: Buffer, now: number): McpConsentRow | undefined {
    const values = this.s.consentByHandle.get({ hash, now });
    return values && mcpConsentColumns.row(values);
  }

  consentByUserCode(hash: Buffer, now: number): McpConsentRow | undefined {
    const values = this.s.consentByUserCode.get({ hash, now });
    return values && mcpConsentColumns.row(values);
  }

  /** Records the key that approved a waiting consent; false when it was approved already or has expired. */
  approveConsent(handleHash: Buffer, keyId: string, now: number): boolean {
    return this.s.approveConsent.run({ hash: handleHash, key_id: keyId, now }).changes > 0;
  }

  /** Ends a sign-in; false when it had ended already. */
  deleteConsent(_uow: UnitOfWork, handleHash: Buffer): boolean {
    return this.s.deleteConsent.run({ hash: handleHash }).changes > 0;
  }

  /** Inserts a grant; its client's first takes the client out of the unused ones for good (`signed_in_at`). */
  insertGrant(_uow: UnitOfWork, row: McpGrantRow): void {
    this.db.prepare(mcpGrantColumns.insertSql(row)).run(row);
    this.s.signedIn.run({ id: row.client_id, at: row.created_at });
  }

  grant(id: string): McpGrantRow | undefined {
    const values = this.s.grant.get({ id });
    return values && mcpGrantColumns.row(values);
  }

  grants(orgId?: string): McpGrantListing[] {
    const all = orgId === undefined ? this.s.grants.all({}) : this.s.grantsOfOrg.all({ org_id: orgId });
    const n = mcpGrantColumns.names.length;
    return all.map((values) => ({ ...mcpGrantColumns.row(values.slice(0, n)), client_name: values[n] as string | null }));
  }

  /** Revokes a grant and deletes its tokens; false when it was revoked already. */
  revokeGrant(_uow: UnitOfWork, id: string, at: string, why: string): boolean {
    const changed = this.s.revokeGrant.run({ id, at, why }).changes > 0;
    this.s.tokensOfGrant.run({ grant_id: id });
    return changed;
  }

  /** Revokes every grant of a client and deletes their tokens; answers how many were still active. */
  revokeClientGrants(_uow: UnitOfWork, clientId: string, at: string, why: string): number {
    const changed = this.s.revokeClient.run({ client_id: clientId, at, why }).changes;
    this.s.tokensOfClient.run({ client_id: clientId });
    return changed;
  }

  touchGrant(_uow: UnitOfWork, id: string, at: string): void {
    this.s.touchGrant.run({ id, at });
  }

  insertCode(_uow: UnitOfWork, row: McpCodeRow): void {
    this.db.prepare(mcpCodeColumns.insertSql(row)).run(row);
  }

  code(hash: Buffer): McpCodeRow | undefined {
    const values = this.s.code.get({ hash });
    return values && mcpCodeColumns.row(values);
  }

  /** Marks a code used; false when it had been used before. */
  useCode(_uow: UnitOfWork, hash: Buffer, now: number): boolean {
    return this.s.useCode.run({ hash, now }).changes > 0;
  }

  insertToken(_uow: UnitOfWork, row: McpTokenRow): void {
    this.db.prepare(mcpTokenColumns.insertSql(row)).run(row);
  }

  token(hash: Buffer): McpTokenRow | undefined {
    const values = this.s.token.get({ hash });
    return values && mcpTokenColumns.row(values);
  }

  /** Marks a refresh token used (rotated); false when it had been used before. */
  useToken(_uow: UnitOfWork, hash: Buffer, now: number): boolean {
    return this.s.useToken.run({ hash, now }).changes > 0;
  }

  deleteToken(hash: Buffer): void {
    this.s.deleteToken.run({ hash });
  }

  /** Deletes expired codes and tokens. */
  purgeExpired(_uow: UnitOfWork, now: number): void {
    this.s.purgeCodes.run({ now });
    this.s.purgeTokens.run({ now });
  }
}

/** A statement answering rows as arrays of values, built into rows by a table's `row`. */
function raw(db: Db, sql: string): Database.Statement<Record<string, unknown>, unknown[]> {
  return db.prepare<Record<string, unknown>, unknown[]>(sql).raw();
}
