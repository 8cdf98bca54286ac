import type Database from 'better-sqlite3';
import type { StatusMove } from '../lifecycle.js';
import { connectionColumns, type AuthStatus, type ConnectionPatch, type ConnectionRow, type NewConnectionRow } from './connections-table.js';
import type { Db } from './database.js';
import { toPage, type Page, type PageQuery } from './page.js';
import type { UnitOfWork } from './unit-of-work.js';

const COLUMNS = connectionColumns.selectList;

/** Where a link's flow stands (connections/oauth-client/link-lifecycle.ts). */
export type LinkStatus = 'pending' | 'opened' | 'answered' | 'authenticated' | 'failed';

export interface ConnectionLinkRow {
  id: string;
  org_id: string;
  connection_id: string;
  redirect_url: string | null;
  state_hash: string | null;
  verifier_enc: string | null;
  expires_at: number;
  opened_at: string | null;
  finished_at: string | null;
  created_at: string;
  status: LinkStatus;
  /** Why the flow failed, once it has. */
  outcome_detail: string | null;
}

/** Connections and their hosted connect links. */
export class ConnectionsStore {
  private readonly s;
  private readonly insertCache = new Map<string, Database.Statement<NewConnectionRow>>();
  private readonly patchCache = new Map<string, Database.Statement<Record<string, unknown>>>();
  private readonly authCache = new Map<string, Database.Statement<Record<string, unknown>, unknown[]>>();

  constructor(private readonly db: Db) {
    this.s = {
      get: raw(db, `SELECT ${COLUMNS} FROM connections WHERE id = @id AND org_id = @org_id`),
      first: raw(db, `SELECT ${COLUMNS} FROM connections WHERE org_id = @org_id ORDER BY id DESC LIMIT @limit`),
      after: raw(db, `SELECT ${COLUMNS} FROM connections WHERE org_id = @org_id AND id < @cursor ORDER BY id DESC LIMIT @limit`),
      inScope: raw(db, `SELECT ${COLUMNS} FROM connections WHERE org_id = @org_id AND (project_id IS NULL OR project_id = @project_id) ORDER BY id`),
      nameTaken: db.prepare<{ org_id: string; project_id: string; name: string; except: string }, { id: string }>(
        "SELECT id FROM connections WHERE org_id = @org_id AND COALESCE(project_id, '') = @project_id AND name = @name AND id <> @except",
      ),
      envTaken: db.prepare<{ org_id: string; project_id: string; env: string; except: string }, { id: string; name: string }>(
        "SELECT id, name FROM connections WHERE org_id = @org_id AND COALESCE(project_id, '') = @project_id AND env_var_name = @env AND id <> @except",
      ),
      delete: db.prepare<{ id: string; org_id: string }>('DELETE FROM connections WHERE id = @id AND org_id = @org_id'),
      insertLink: db.prepare(
        `INSERT INTO connection_links (id, org_id, connection_id, redirect_url, state_hash, verifier_enc, expires_at, opened_at, finished_at, created_at, status)
         VALUES (@id, @org_id, @connection_id, @redirect_url, NULL, NULL, @expires_at, NULL, NULL, @created_at, 'pending')`,
      ),
      getLink: db.prepare<{ id: string }, ConnectionLinkRow>('SELECT * FROM connection_links WHERE id = @id'),
      orgLink: db.prepare<{ id: string; org_id: string }, ConnectionLinkRow>('SELECT * FROM connection_links WHERE id = @id AND org_id = @org_id'),
      endLink: db.prepare<{ id: string; from: LinkStatus; to: LinkStatus; outcome_detail: string | null }>(
        'UPDATE connection_links SET status = @to, outcome_detail = @outcome_detail WHERE id = @id AND status = @from',
      ),
      linkByState: db.prepare<{ state_hash: string }, ConnectionLinkRow>('SELECT * FROM connection_links WHERE state_hash = @state_hash'),
      openLink: db.prepare<{ id: string; from: LinkStatus; to: LinkStatus; state_hash: string; verifier_enc: string; opened_at: string; now: number }>(
        `UPDATE connection_links SET status = @to, state_hash = @state_hash, verifier_enc = @verifier_enc, opened_at = @opened_at
         WHERE id = @id AND status = @from AND expires_at > @now`,
      ),
      claimRefresh: db.prepare<{ connection_id: string; holder: string; now: number; until: number }>(
        `INSERT INTO connection_refresh_leases (connection_id, holder, until) VALUES (@connection_id, @holder, @until)
         ON CONFLICT (connection_id) DO UPDATE SET holder = excluded.holder, until = excluded.until WHERE connection_refresh_leases.until <= @now`,
      ),
      refreshLeased: db.prepare<{ connection_id: string; now: number }, { held: number }>(
        'SELECT 1 AS held FROM connection_refresh_leases WHERE connection_id = @connection_id AND until > @now',
      ),
      releaseRefresh: db.prepare<{ connection_id: string; holder: string }>('DELETE FROM connection_refresh_leases WHERE connection_id = @connection_id AND holder = @holder'),
      liveLink: db.prepare<{ connection_id: string; now: number; opened_after: string }, { live: number }>(
        // Unopened until its signature's whole second; opened, until its flow's time is up. Through the connection's index.
        `SELECT 1 AS live FROM connection_links WHERE connection_id = @connection_id AND status IN ('pending', 'opened', 'answered')
           AND ((opened_at IS NULL AND expires_at / 1000 * 1000 > @now) OR (opened_at IS NOT NULL AND opened_at > @opened_after)) LIMIT 1`,
      ),
      finishLink: db.prepare<{ id: string; from: LinkStatus; to: LinkStatus; finished_at: string }>(
        'UPDATE connection_links SET status = @to, finished_at = @finished_at, verifier_enc = NULL WHERE id = @id AND status = @from',
      ),
    };
  }

  /** Inserts a connection; answers the row as stored. */
  insert(row: NewConnectionRow): ConnectionRow {
    const sql = connectionColumns.insertSql(row);
    let stmt = this.insertCache.get(sql);
    if (!stmt) {
      stmt = this.db.prepare<NewConnectionRow>(sql);
      this.insertCache.set(sql, stmt);
    }
    stmt.run(row);
    return connectionColumns.withDefaults(row);
  }

  get(orgId: string, id: string): ConnectionRow | undefined {
    const values = this.s.get.get({ id, org_id: orgId });
    return values && connectionColumns.row(values);
  }

  list(orgId: string, q: PageQuery): Page<ConnectionRow> {
    const stmt = q.cursor === null ? this.s.first : this.s.after;
    return toPage(stmt.all({ org_id: orgId, cursor: q.cursor, limit: q.limit + 1 }).map(connectionColumns.row), q.limit);
  }

  /** The organisation-wide connections and those of `projectId`, oldest first. */
  inScope(orgId: string, projectId: string): ConnectionRow[] {
    return this.s.inScope.all({ org_id: orgId, project_id: projectId }).map(connectionColumns.row);
  }

  /** Whether another connection of the same scope (the organisation, or one project) already has this name. */
  nameTaken(orgId: string, projectId: string | null, name: string, exceptId = ''): boolean {
    return this.s.nameTaken.get({ org_id: orgId, project_id: projectId ?? '', name, except: exceptId }) !== undefined;
  }

  /** The name of another connection of the same scope injected as this variable, if any. */
  envVarTakenBy(orgId: string, projectId: string | null, envVarName: string, exceptId = ''): string | null {
    return this.s.envTaken.get({ org_id: orgId, project_id: projectId ?? '', env: envVarName, except: exceptId })?.name ?? null;
  }

  /** Changes the patchable columns named in `patch`; answers the row after, or undefined when it is gone. */
  patch(orgId: string, id: string, patch: ConnectionPatch): ConnectionRow | undefined {
    const names = connectionColumns.patchedNames(patch);
    if (names.length > 0) {
      const sig = names.join(',');
      let stmt = this.patchCache.get(sig);
      if (!stmt) {
        stmt = this.db.prepare(`UPDATE connections SET ${names.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id AND org_id = @org_id`);
        this.patchCache.set(sig, stmt);
      }
      stmt.run({ ...patch, id, org_id: orgId });
    }
    return this.get(orgId, id);
  }

  /**
   * Compare-and-set of `auth_status`, with the columns that change with it: only while the connection is still in
   * `move.from`. Answers the row after, or undefined when it was not (or is gone).
   */
  setAuthStatus(_uow: UnitOfWork, orgId: string, id: string, move: StatusMove<AuthStatus>, patch: ConnectionPatch): ConnectionRow | undefined {
    const names = connectionColumns.patchedNames(patch);
    const sig = names.join(',');
    let stmt = this.authCache.get(sig);
    if (!stmt) {
      const sets = ['auth_status = @to', ...names.map((c) => `${c} = @${c}`)].join(', ');
      stmt = raw(this.db, `UPDATE connections SET ${sets} WHERE id = @id AND org_id = @org_id AND auth_status = @from RETURNING ${COLUMNS}`);
      this.authCache.set(sig, stmt);
    }
    const values = stmt.get({ ...patch, id, org_id: orgId, from: move.from, to: move.to });
    return values && connectionColumns.row(values);
  }

  /** Deletes the connection, its sealed secret and its links. */
  delete(orgId: string, id: string): boolean {
    return this.s.delete.run({ id, org_id: orgId }).changes > 0;
  }

  insertLink(row: Pick<ConnectionLinkRow, 'id' | 'org_id' | 'connection_id' | 'redirect_url' | 'expires_at' | 'created_at'>): void {
    this.s.insertLink.run(row);
  }

  getLink(id: string): ConnectionLinkRow | undefined {
    return this.s.getLink.get({ id });
  }

  /** The organisation's link, or undefined. */
  orgLink(orgId: string, id: string): ConnectionLinkRow | undefined {
    return this.s.orgLink.get({ id, org_id: orgId });
  }

  /**
   * Records how a link's flow ended, in the unit of work that records what it did to the connection; false when it
   * was no longer in `move.from` (the first outcome stands).
   */
  endLink(_uow: UnitOfWork, id: string, move: StatusMove<LinkStatus>, detail: string | null): boolean {
    return this.s.endLink.run({ id, from: move.from, to: move.to, outcome_detail: detail }).changes > 0;
  }

  linkByState(stateHash: string): ConnectionLinkRow | undefined {
    return this.s.linkByState.get({ state_hash: stateHash });
  }

  /**
   * Opens an unexpired link in `move.from`, with its flow's state and sealed verifier; false when it was no longer
   * there (used) or has expired.
   */
  openLink(id: string, move: StatusMove<LinkStatus>, flow: { stateHash: string; verifierEnc: string; openedAt: string }, nowMs: number): boolean {
    return this.s.openLink.run({ id, from: move.from, to: move.to, state_hash: flow.stateHash, verifier_enc: flow.verifierEnc, opened_at: flow.openedAt, now: nowMs }).changes > 0;
  }

  /** Takes the lease on refreshing a connection's tokens until `untilMs`; false while another holder's lease runs. */
  claimRefresh(connectionId: string, holder: string, nowMs: number, untilMs: number): boolean {
    return this.s.claimRefresh.run({ connection_id: connectionId, holder, now: nowMs, until: untilMs }).changes > 0;
  }

  /** Whether someone holds an unexpired lease on refreshing the connection's tokens. */
  refreshLeased(connectionId: string, nowMs: number): boolean {
    return this.s.refreshLeased.get({ connection_id: connectionId, now: nowMs }) !== undefined;
  }

  /** Gives up a refresh lease, if `holder` still holds it. */
  releaseRefresh(connectionId: string, holder: string): void {
    this.s.releaseRefresh.run({ connection_id: connectionId, holder });
  }

  /** Whether a link of the connection can still be used, or its flow still finish: unopened and unexpired, or opened after `openedAfter`. */
  hasLiveLink(connectionId: string, nowMs: number, openedAfter: string): boolean {
    return this.s.liveLink.get({ connection_id: connectionId, now: nowMs, opened_after: openedAfter }) !== undefined;
  }

  /** Takes the provider's answer to a link's flow once, forgetting its verifier; false when it was no longer in `move.from`. */
  finishLink(_uow: UnitOfWork, id: string, move: StatusMove<LinkStatus>, finishedAt: string): boolean {
    return this.s.finishLink.run({ id, from: move.from, to: move.to, finished_at: finishedAt }).changes > 0;
  }
}

function raw(db: Db, sql: string): Database.Statement<Record<string, unknown>, unknown[]> {
  return db.prepare<Record<string, unknown>, unknown[]>(sql).raw();
}
