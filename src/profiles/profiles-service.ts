import { isoTime } from '../clock.js';
import { ConflictError, InvalidRequestError, NotFoundError, PayloadTooLargeError, QuotaError } from '../errors.js';
import type { EventAnnouncer } from '../event-log/event-announcer.js';
import { pageQuery, toListResponse, type ListQuery, type ListResponse } from '../pagination.js';
import type { Resources } from '../resources.js';
import type { BrowserState, LoginCheck, LoginCheckResult } from '../sandbox/protocol.js';
import type { RunRow } from '../store/runs-table.js';
import type { NewProfileRow, ProfilePatch, ProfileRow, ProfileSavedVia } from '../store/profiles-table.js';
import type { UnitOfWork } from '../store/unit-of-work.js';
import { profileHealth } from './profile-health.js';
import { checkOf, isExpired, toProfile, type Profile } from './profile-record.js';
import type { CreateProfileBody, ProfileCheckBody, ProfileUsesQuery, UpdateProfileBody } from './profile-schemas.js';
import { stateBytes, type ProfileStates } from './profile-state.js';

/** Checks a profile's login in a sandbox of its own (profile-check.ts): its state loaded, its page looked at. */
export type LoginChecker = (profile: ProfileRow, state: BrowserState | null, check: LoginCheck) => Promise<LoginCheckResult>;

export interface ProfileUse {
  object: 'profile_use';
  run_id: string;
  attempt: number;
  access: 'read' | 'read_write';
  used_at: string;
  saved_at: string | null;
}

/** Who saves a state: a run when it succeeded, or a person from a run's live view; `version` is what a run loaded. */
export interface StateSaver {
  runId: string;
  via: Extract<ProfileSavedVia, 'run' | 'live_view'>;
  /** The version the run loaded: the save is refused when someone else saved since. Null: save over whatever is there. */
  version: number | null;
}

/** What saving a browser's state came to: the profile after, or why it was not saved (said as a run's warning). */
export type SaveOutcome = { saved: true; row: ProfileRow } | { saved: false; why: string };

/**
 * Profiles: named, sealed browser states of an organisation that runs start with (docs/api.md, Profiles). The API
 * never answers a state; it answers which sites one holds, its size, who saved it, when it was used and checked.
 */
export class ProfilesService {
  /** Checks under way, by profile: a second asks for the same answer. */
  private readonly checking = new Map<string, Promise<Profile>>();

  constructor(
    private readonly r: Pick<Resources, 'store' | 'clock' | 'ids' | 'config'>,
    private readonly deps: { states: ProfileStates; announcer: EventAnnouncer; checkLogin: LoginChecker },
  ) {}

  private now(): string {
    return isoTime(this.r.clock.now());
  }

  list(orgId: string, q: ListQuery): ListResponse<Profile> {
    const now = this.now();
    return toListResponse(this.r.store.profiles.list(orgId, pageQuery(q)), (row) => toProfile(row, now));
  }

  get(orgId: string, id: string): Profile {
    return toProfile(this.row(orgId, id), this.now());
  }

  row(orgId: string, id: string): ProfileRow {
    const row = this.r.store.profiles.get(orgId, id);
    if (row === undefined) throw new NotFoundError('profile', id);
    return row;
  }

  /** POST /v1/profiles: an empty profile (a run or a person fills it), or an import of a Playwright storage state. */
  create(orgId: string, body: CreateProfileBody): Profile {
    const check = body.check === undefined ? null : checkedCheck(body.check);
    if (body.state !== undefined) this.checkSize(stateBytes(body.state as BrowserState), 'state');
    const now = this.now();
    const row = this.r.store.transaction((uow) => {
      this.checkRoom(orgId);
      if (this.r.store.profiles.nameTaken(orgId, body.name)) throw new ConflictError('profile_name_taken', `the organisation already has a profile named ${body.name}`, { param: 'name' });
      const created = this.insert(uow, orgId, body.name, now, { ...checkColumns(check), expires_at: body.expires_at === undefined ? null : isoTime(Date.parse(body.expires_at)) });
      if (body.state === undefined) return created;
      return this.r.store.profiles.saveState(uow, orgId, created.id, { ...this.deps.states.seal(created.id, body.state as BrowserState), saved_at: now, saved_by_run_id: null, saved_via: 'import' }, null)!;
    });
    return toProfile(row, now);
  }

  update(orgId: string, id: string, body: UpdateProfileBody): Profile {
    const before = this.row(orgId, id);
    if (body.state !== undefined) this.checkSize(stateBytes(body.state as BrowserState), 'state');
    if (body.name !== undefined && body.name !== before.name && this.r.store.profiles.nameTaken(orgId, body.name, id)) {
      throw new ConflictError('profile_name_taken', `the organisation already has a profile named ${body.name}`, { param: 'name' });
    }
    const now = this.now();
    const patch: ProfilePatch = { updated_at: now };
    if (body.name !== undefined) patch.name = body.name;
    if (body.check !== undefined) Object.assign(patch, checkColumns(body.check === null ? null : checkedCheck(body.check)));
    if (body.expires_at !== undefined) patch.expires_at = body.expires_at === null ? null : isoTime(Date.parse(body.expires_at));
    const row = this.r.store.transaction((uow) => {
      const patched = this.r.store.profiles.patch(orgId, id, patch);
      if (patched === undefined) throw new NotFoundError('profile', id);
      if (body.state === undefined) return patched;
      return this.r.store.profiles.saveState(uow, orgId, id, { ...this.deps.states.seal(id, body.state as BrowserState), saved_at: now, saved_by_run_id: null, saved_via: 'import' }, null)!;
    });
    return toProfile(row, now);
  }

  /** Deletes the profile and its state: the pages it was in are zeroed, and the write-ahead log emptied of them. */
  delete(orgId: string, id: string): { id: string; object: 'profile'; deleted: true } {
    if (!this.r.store.profiles.delete(orgId, id)) throw new NotFoundError('profile', id);
    this.r.store.profiles.dropOldLog();
    return { id, object: 'profile', deleted: true };
  }

  uses(orgId: string, id: string, q: ProfileUsesQuery): ListResponse<ProfileUse> {
    this.row(orgId, id);
    const page = this.r.store.profiles.uses(id, pageQuery(q));
    const last = page.items.at(-1);
    return {
      object: 'list',
      data: page.items.map((use) => ({ object: 'profile_use', run_id: use.run_id, attempt: use.attempt, access: use.access, used_at: use.used_at, saved_at: use.saved_at })),
      has_more: page.hasMore,
      next_cursor: page.hasMore && last !== undefined ? last.run_id : null,
    };
  }

  /**
   * POST /v1/profiles/{id}/check (`errand profiles check`): its state loaded in a sandbox of its own and its page
   * looked at; the health it finds is recorded, and a signed-out one announced (profile.signed_out).
   */
  check(orgId: string, id: string): Promise<Profile> {
    const row = this.row(orgId, id);
    const check = checkOf(row);
    if (check === null) {
      throw new InvalidRequestError('profile_has_no_check', `the profile ${row.name} does not say how to tell it is signed in: set its check (a url, and a text or a role and name shown there only when signed in)`, { param: 'check' });
    }
    const under = this.checking.get(id);
    if (under !== undefined) return under;
    const checking = (async () => {
      const state = isExpired(row, this.now()) ? null : this.deps.states.open(row);
      const result = await this.deps.checkLogin(row, state, check);
      return toProfile(this.recordCheck(row, result), this.now());
    })().finally(() => this.checking.delete(id));
    this.checking.set(id, checking);
    return checking;
  }

  /**
   * Records what a check saw (a run's, or one on demand): the profile's health, and `profile.signed_out` when it was
   * not signed out before. A page that did not load says nothing of the login: the health stays, with its detail.
   */
  recordCheck(row: ProfileRow, result: LoginCheckResult): ProfileRow {
    const now = this.now();
    if (result.outcome === 'unreachable') return this.r.store.profiles.patch(row.org_id, row.id, { health_detail: result.detail, checked_at: now }) ?? row;
    return this.r.store.transaction((uow) => this.setHealth(uow, row, result.outcome === 'signed_in' ? 'signed_in' : 'signed_out', result.detail, now));
  }

  private setHealth(uow: UnitOfWork, row: ProfileRow, to: 'signed_in' | 'signed_out', detail: string, now: string): ProfileRow {
    const current = this.r.store.profiles.get(row.org_id, row.id) ?? row;
    const after = this.r.store.profiles.setHealth(uow, row.id, profileHealth.move(current.health, to), detail, now);
    if (after === undefined) return current;
    if (to === 'signed_out' && current.health !== 'signed_out') {
      this.deps.announcer.announce(uow, { type: 'profile.signed_out', orgId: row.org_id, data: toProfile(after, now) });
    }
    return after;
  }

  /** The profile of this name, or null. */
  byName(orgId: string, name: string): ProfileRow | null {
    return this.r.store.profiles.byName(orgId, name) ?? null;
  }

  /** The profile of this name, made empty when there is none (a run that saves to it, a person saving a login). */
  ensure(orgId: string, name: string): ProfileRow {
    const found = this.byName(orgId, name);
    if (found !== null) return found;
    try {
      return this.r.store.transaction((uow) => {
        this.checkRoom(orgId);
        return this.insert(uow, orgId, name, this.now(), {});
      });
    } catch (err) {
      // Made meanwhile by another run or person: theirs it is.
      const made = this.byName(orgId, name);
      if (made !== null) return made;
      throw err;
    }
  }

  /** The state a profile holds for a run now: null when it has none, or its expiry has come. */
  stateOf(row: ProfileRow): BrowserState | null {
    return isExpired(row, this.now()) ? null : this.deps.states.open(row);
  }

  /**
   * Saves a browser's state as the profile's (by a run that succeeded, or a person from its live view), sealed;
   * refused when it is larger than profiles.max_state_kb, or when someone else saved since the run loaded it.
   */
  saveState(row: ProfileRow, state: BrowserState, saver: StateSaver): SaveOutcome {
    const bytes = stateBytes(state);
    const limit = this.r.config['profiles.max_state_kb'] * 1024;
    if (bytes > limit) return { saved: false, why: `the browser's state is ${Math.ceil(bytes / 1024)} KB, more than profiles.max_state_kb (${limit / 1024} KB)` };
    const now = this.now();
    const saved = this.r.store.transaction((uow) => {
      const after = this.r.store.profiles.saveState(uow, row.org_id, row.id, { ...this.deps.states.seal(row.id, state), saved_at: now, saved_by_run_id: saver.runId, saved_via: saver.via }, saver.version, saver.runId);
      if (after === undefined) return undefined;
      if (saver.via === 'run') this.r.store.profiles.recordSaved(uow, row.id, saver.runId, this.attemptOf(saver.runId), now);
      return after;
    });
    if (saved === undefined) return { saved: false, why: `the profile ${row.name} was saved by someone else while the run used it (another run, the live view or an import): theirs is kept` };
    return { saved: true, row: saved };
  }

  /**
   * "Save this login" on a run's live view (POST /v1/runs/{id}/live/login): the browser's state saved now as `name`,
   * made if need be. A live link's holder may save only to the run's own profiles (its profile and save_profile) or
   * to a name no profile has yet, never over another of the organisation's logins; an API key may save to any.
   */
  saveFromLiveView(run: RunRow, name: string, state: BrowserState, holder: 'live_link' | 'api_key'): Profile {
    const own = [run.profile, run.save_profile].filter((n): n is string => n !== null);
    const existing = this.byName(run.org_id, name);
    if (holder === 'live_link' && existing !== null && !own.includes(name)) {
      throw new ConflictError(
        'profile_not_this_runs',
        `the profile ${name} is not this run's (${own.length === 0 ? 'it names none' : own.join(', ')}): from a live link, save to the run's own profile or to a new name`,
        { param: 'profile' },
      );
    }
    const row = existing ?? this.ensure(run.org_id, name);
    const saved = this.saveState(row, state, { runId: run.id, via: 'live_view', version: null });
    if (!saved.saved) throw new PayloadTooLargeError('profile_too_large', saved.why, { param: 'profile' });
    return toProfile(saved.row, this.now());
  }

  /** The profiles a person on the run's live view may save its login to without naming a new one. */
  liveViewTargets(run: RunRow): string[] {
    return [...new Set([run.profile, run.save_profile].filter((n): n is string => n !== null))];
  }

  /** After a sign-in that a run saved: the profile is signed in, whatever a check said before. */
  markSignedIn(row: ProfileRow, detail: string): ProfileRow {
    if (row.health === 'signed_in' || row.check_url === null) return row;
    return this.r.store.transaction((uow) => this.setHealth(uow, row, 'signed_in', detail, this.now()));
  }

  /** Erases the states whose expiry has come (the profiles stay, empty, until deleted). */
  eraseExpired(): number {
    const now = this.now();
    let erased = 0;
    for (const { id } of this.r.store.profiles.expiring(now)) if (this.r.store.profiles.eraseState(id, now)) erased += 1;
    if (erased > 0) this.r.store.profiles.dropOldLog();
    return erased;
  }

  private attemptOf(runId: string): number {
    return this.r.store.runs.getById(runId)?.attempt ?? 1;
  }

  private insert(uow: UnitOfWork, orgId: string, name: string, now: string, extra: Partial<NewProfileRow>): ProfileRow {
    return this.r.store.profiles.insert(uow, {
      id: this.r.ids('prf'),
      org_id: orgId,
      name,
      state_enc: null,
      state_bytes: 0,
      origins: '[]',
      version: 0,
      saved_at: null,
      saved_by_run_id: null,
      saved_via: null,
      health: 'unknown',
      writer_run_id: null,
      created_at: now,
      updated_at: now,
      ...extra,
    });
  }

  private checkRoom(orgId: string): void {
    const max = this.r.config['profiles.max_per_org'];
    if (this.r.store.profiles.count(orgId) >= max) {
      throw new QuotaError('profile_quota_exceeded', `the organisation has ${max} profiles, the most profiles.max_per_org allows: delete one first`);
    }
  }

  private checkSize(bytes: number, param: string): void {
    const limit = this.r.config['profiles.max_state_kb'] * 1024;
    if (bytes > limit) throw new PayloadTooLargeError('profile_too_large', `the state is ${Math.ceil(bytes / 1024)} KB, more than profiles.max_state_kb (${limit / 1024} KB)`, { param });
  }
}

/** A check as given: a text, or a role with an optional name; never both. */
function checkedCheck(check: ProfileCheckBody): LoginCheck {
  if ((check.text === undefined) === (check.role === undefined)) {
    throw new InvalidRequestError('invalid_check', 'a check has a url and either a text or a role (with an optional name) shown only when signed in', { param: 'check' });
  }
  if (check.name !== undefined && check.role === undefined) throw new InvalidRequestError('invalid_check', 'check.name is the accessible name of check.role: give a role with it', { param: 'check.name' });
  return check;
}

function checkColumns(check: LoginCheck | null): Pick<ProfilePatch, 'check_url' | 'check_text' | 'check_role' | 'check_name'> {
  return { check_url: check?.url ?? null, check_text: check?.text ?? null, check_role: check?.role ?? null, check_name: check?.name ?? null };
}
