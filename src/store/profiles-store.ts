import type Database from 'better-sqlite3';
import type { StatusMove } from '../lifecycle.js';
import type { Db } from './database.js';
import { toPage, type Page, type PageQuery } from './page.js';
import { profileColumns, type NewProfileRow, type ProfileHealth, type ProfilePatch, type ProfileRow, type ProfileSavedVia, type ProfileUseRow } from './profiles-table.js';
import type { UnitOfWork } from './unit-of-work.js';

const COLUMNS = profileColumns.selectList;

/** A state saved: the sealed value and what the API shows of it, who saved it and how. */
export interface SavedState {
  state_enc: string;
  state_bytes: number;
  /** JSON array of the origins and cookie domains it holds. */
  origins: string;
  saved_at: string;
  saved_by_run_id: string | null;
  saved_via: ProfileSavedVia;
}

/**
 * Profiles (saved logins) and the record of their use. Statements that drop a sealed state (a delete, an erase, a
 * save over an older state) run with SQLite's secure_delete on, so the freed pages are zeroed rather than left holding
 * the old ciphertext; `dropOldLog` then empties the write-ahead log, whose earlier frames hold it too.
 */
export class ProfilesStore {
  private readonly s;
  private readonly insertCache = new Map<string, Database.Statement<NewProfileRow>>();
  private readonly patchCache = new Map<string, Database.Statement<Record<string, unknown>>>();

  constructor(private readonly db: Db) {
    this.s = {
      get: raw(db, `SELECT ${COLUMNS} FROM profiles WHERE id = @id AND org_id = @org_id`),
      byName: raw(db, `SELECT ${COLUMNS} FROM profiles WHERE org_id = @org_id AND name = @name`),
      first: raw(db, `SELECT ${COLUMNS} FROM profiles WHERE org_id = @org_id ORDER BY id DESC LIMIT @limit`),
      after: raw(db, `SELECT ${COLUMNS} FROM profiles WHERE org_id = @org_id AND id < @cursor ORDER BY id DESC LIMIT @limit`),
      count: db.prepare<{ org_id: string }, number>('SELECT COUNT(*) FROM profiles WHERE org_id = @org_id').pluck(),
      nameTaken: db.prepare<{ org_id: string; name: string; except: string }, { id: string }>('SELECT id FROM profiles WHERE org_id = @org_id AND name = @name AND id <> @except'),
      saveState: raw(
        db,
        `UPDATE profiles SET state_enc = @state_enc, state_bytes = @state_bytes, origins = @origins, version = version + 1, saved_at = @saved_at,
           saved_by_run_id = @saved_by_run_id, saved_via = @saved_via, updated_at = @saved_at
         WHERE id = @id AND org_id = @org_id AND (@version IS NULL OR version = @version OR saved_by_run_id = @run_id) RETURNING ${COLUMNS}`,
      ),
      erase: db.prepare<{ id: string; updated_at: string }>(
        `UPDATE profiles SET state_enc = NULL, state_bytes = 0, origins = '[]', version = version + 1, updated_at = @updated_at WHERE id = @id AND state_enc IS NOT NULL`,
      ),
      expiring: db.prepare<{ now: string }, { id: string; org_id: string }>(
        'SELECT id, org_id FROM profiles INDEXED BY profiles_expiring WHERE expires_at IS NOT NULL AND state_enc IS NOT NULL AND expires_at <= @now',
      ),
      setHealth: raw(
        db,
        `UPDATE profiles SET health = @to, health_detail = @detail, checked_at = @checked_at WHERE id = @id AND health = @from RETURNING ${COLUMNS}`,
      ),
      claimWriter: db.prepare<{ id: string; run_id: string }>(
        // Free while nobody holds it, or its holder is not running any more (it ended, or a daemon that died left it).
        `UPDATE profiles SET writer_run_id = @run_id WHERE id = @id AND (writer_run_id IS NULL OR writer_run_id = @run_id
           OR NOT EXISTS (SELECT 1 FROM runs WHERE runs.id = profiles.writer_run_id AND runs.status = 'running'))`,
      ),
      releaseWriter: db.prepare<{ id: string; run_id: string }>('UPDATE profiles SET writer_run_id = NULL WHERE id = @id AND writer_run_id = @run_id'),
      delete: db.prepare<{ id: string; org_id: string }>('DELETE FROM profiles WHERE id = @id AND org_id = @org_id'),
      use: db.prepare<ProfileUseRow>(
        `INSERT INTO profile_uses (profile_id, run_id, attempt, access, used_at, saved_at) VALUES (@profile_id, @run_id, @attempt, @access, @used_at, @saved_at)
         ON CONFLICT (profile_id, run_id, attempt) DO UPDATE SET access = excluded.access, used_at = excluded.used_at`,
      ),
      used: db.prepare<{ id: string; run_id: string; used_at: string }>('UPDATE profiles SET last_used_at = @used_at, last_used_by_run_id = @run_id WHERE id = @id'),
      saved: db.prepare<{ profile_id: string; run_id: string; attempt: number; saved_at: string }>(
        'UPDATE profile_uses SET saved_at = @saved_at WHERE profile_id = @profile_id AND run_id = @run_id AND attempt = @attempt',
      ),
      usesFirst: db.prepare<{ profile_id: string; limit: number }, ProfileUseRow>(
        'SELECT * FROM profile_uses WHERE profile_id = @profile_id ORDER BY run_id DESC, attempt DESC LIMIT @limit',
      ),
      usesAfter: db.prepare<{ profile_id: string; cursor: string; limit: number }, ProfileUseRow>(
        'SELECT * FROM profile_uses WHERE profile_id = @profile_id AND run_id < @cursor ORDER BY run_id DESC, attempt DESC LIMIT @limit',
      ),
      truncateLog: db.prepare<[], { busy: number; log: number; checkpointed: number }>('PRAGMA wal_checkpoint(TRUNCATE)'),
    };
  }

  /** Inserts a profile; answers the row as stored. */
  insert(_uow: UnitOfWork, row: NewProfileRow): ProfileRow {
    const sql = profileColumns.insertSql(row);
    let stmt = this.insertCache.get(sql);
    if (!stmt) {
      stmt = this.db.prepare<NewProfileRow>(sql);
      this.insertCache.set(sql, stmt);
    }
    stmt.run(row);
    return profileColumns.withDefaults(row);
  }

  get(orgId: string, id: string): ProfileRow | undefined {
    const values = this.s.get.get({ id, org_id: orgId });
    return values && profileColumns.row(values);
  }

  byName(orgId: string, name: string): ProfileRow | undefined {
    const values = this.s.byName.get({ org_id: orgId, name });
    return values && profileColumns.row(values);
  }

  list(orgId: string, q: PageQuery): Page<ProfileRow> {
    const stmt = q.cursor === null ? this.s.first : this.s.after;
    return toPage(stmt.all({ org_id: orgId, cursor: q.cursor, limit: q.limit + 1 }).map(profileColumns.row), q.limit);
  }

  count(orgId: string): number {
    return this.s.count.get({ org_id: orgId })!;
  }

  nameTaken(orgId: string, name: string, exceptId = ''): boolean {
    return this.s.nameTaken.get({ org_id: orgId, name, except: exceptId }) !== undefined;
  }

  /** Changes the patchable columns named in `patch`; answers the row after, or undefined when it is gone. */
  patch(orgId: string, id: string, patch: ProfilePatch): ProfileRow | undefined {
    const names = profileColumns.patchedNames(patch);
    if (names.length > 0) {
      const sig = names.join(',');
      let stmt = this.patchCache.get(sig);
      if (!stmt) {
        stmt = this.db.prepare(`UPDATE profiles SET ${names.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id AND org_id = @org_id`);
        this.patchCache.set(sig, stmt);
      }
      stmt.run({ ...patch, id, org_id: orgId });
    }
    return this.get(orgId, id);
  }

  /**
   * Replaces the sealed state, over `version` when given (a run writes back only over the state it loaded, or over one
   * saved from its own browser since: its live view's); answers the row after, or undefined when someone else saved
   * meanwhile (or the profile is gone). The old state's pages are zeroed.
   */
  saveState(_uow: UnitOfWork, orgId: string, id: string, state: SavedState, version: number | null, runId: string | null = null): ProfileRow | undefined {
    const values = this.secureDelete(() => this.s.saveState.get({ ...state, id, org_id: orgId, version, run_id: runId }));
    return values && profileColumns.row(values);
  }

  /** Forgets a profile's state (its expiry came), zeroing its pages; answers whether it held one. */
  eraseState(id: string, updatedAt: string): boolean {
    return this.secureDelete(() => this.s.erase.run({ id, updated_at: updatedAt }).changes > 0);
  }

  /** Profiles whose expiry has come and that still hold a state. */
  expiring(now: string): { id: string; org_id: string }[] {
    return this.s.expiring.all({ now });
  }

  /** Compare-and-set of `health`: only while it is still `move.from`. Answers the row after, or undefined. */
  setHealth(_uow: UnitOfWork, id: string, move: StatusMove<ProfileHealth>, detail: string | null, checkedAt: string): ProfileRow | undefined {
    const values = this.s.setHealth.get({ id, from: move.from, to: move.to, detail, checked_at: checkedAt });
    return values && profileColumns.row(values);
  }

  /**
   * Makes `runId` the one run that may write the profile back; false while another running run is that run. The
   * lease needs no timer: it lapses when its run stops running, however it stopped.
   */
  claimWriter(id: string, runId: string): boolean {
    return this.s.claimWriter.run({ id, run_id: runId }).changes > 0;
  }

  releaseWriter(id: string, runId: string): void {
    this.s.releaseWriter.run({ id, run_id: runId });
  }

  /** Deletes the profile (its uses go with it by cascade), zeroing the pages its state was in. */
  delete(orgId: string, id: string): boolean {
    return this.secureDelete(() => this.s.delete.run({ id, org_id: orgId }).changes > 0);
  }

  /** Records that an attempt of `runId` started with the profile. */
  recordUse(_uow: UnitOfWork, use: Omit<ProfileUseRow, 'saved_at'>): void {
    this.s.use.run({ ...use, saved_at: null });
    this.s.used.run({ id: use.profile_id, run_id: use.run_id, used_at: use.used_at });
  }

  /** Records that the attempt wrote the state back. */
  recordSaved(_uow: UnitOfWork, profileId: string, runId: string, attempt: number, savedAt: string): void {
    this.s.saved.run({ profile_id: profileId, run_id: runId, attempt, saved_at: savedAt });
  }

  /** The runs that used a profile, newest first; the cursor is the run id of the previous page's last row. */
  uses(profileId: string, q: PageQuery): Page<ProfileUseRow> {
    const rows = q.cursor === null ? this.s.usesFirst.all({ profile_id: profileId, limit: q.limit + 1 }) : this.s.usesAfter.all({ profile_id: profileId, cursor: q.cursor, limit: q.limit + 1 });
    return toPage(rows, q.limit);
  }

  /**
   * Empties the write-ahead log into the database file and truncates it, so that frames written before a secure
   * delete (holding the ciphertext it zeroed) are gone from the disk too. Waits for readers at most briefly; answers
   * false when one kept it from finishing (the frames are then overwritten as the log is reused).
   */
  dropOldLog(): boolean {
    if (this.db.memory || this.db.inTransaction) return false;
    const timeout = this.db.pragma('busy_timeout', { simple: true }) as number;
    this.db.pragma('busy_timeout = 200');
    try {
      return this.s.truncateLog.get()!.busy === 0;
    } finally {
      this.db.pragma(`busy_timeout = ${timeout}`);
    }
  }

  /** SQLite's secure_delete for one statement: the pages it frees are zeroed, not left as they were. */
  private secureDelete<T>(work: () => T): T {
    this.db.pragma('secure_delete = ON');
    try {
      return work();
    } finally {
      this.db.pragma('secure_delete = OFF');
    }
  }
}

function raw(db: Db, sql: string): Database.Statement<Record<string, unknown>, unknown[]> {
  return db.prepare<Record<string, unknown>, unknown[]>(sql).raw();
}

