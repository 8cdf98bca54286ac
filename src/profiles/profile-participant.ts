import type { Attempt, AttemptParticipant, AttemptRole } from '../attempt/attempt-participant.js';
import { isoTime, type Clock } from '../clock.js';
import { ConnectionRequiredError } from '../connections/connection-required-error.js';
import { ErrandError } from '../errors.js';
import type { RunOutcome } from '../runs/run-outcome.js';
import type { BrowserState, LoginCheckResult } from '../sandbox/protocol.js';
import type { ProfileRow } from '../store/profiles-table.js';
import type { Store } from '../store/store.js';
import { checkOf } from './profile-record.js';
import type { ProfilesService } from './profiles-service.js';

/** Reading the browser's state back at the end: a moment, unless the sandbox stopped answering. */
const READ_TIMEOUT_MS = 60_000;

/** A profile this attempt writes back if it succeeds, over the version it found. */
interface Target {
  row: ProfileRow;
  version: number;
}

/**
 * A run's saved login (docs/api.md, Profiles), as a participant of each attempt: before the agent starts, the run's
 * profile goes into its sandbox's browser (the warm one as it is) and, when it says how, is checked; a signed-out one
 * is announced (profile.signed_out) and the agent is told to sign in again through the run's connections, or to ask a
 * person. When the attempt succeeds, the browser's state is saved to the profiles the run may write: its profile
 * under read_write, a signed-out one it signed in again, and its save_profile. One running run at a time may write a
 * profile back (its writer lease, held until the run stops running); another reads it and says so in a warning.
 */
export function profileParticipant(deps: { profiles: ProfilesService; store: Pick<Store, 'profiles' | 'transaction'>; clock: Clock }): AttemptParticipant {
  return {
    name: 'profile',
    async join(attempt) {
      if (attempt.run.profile === null && attempt.run.save_profile === null) return null;
      return new RunLogin(attempt, deps).join();
    },
  };
}

class RunLogin {
  private readonly targets: Target[] = [];
  private readonly claimed: ProfileRow[] = [];
  private readonly warnings: string[] = [];

  constructor(
    private readonly attempt: Attempt,
    private readonly deps: { profiles: ProfilesService; store: Pick<Store, 'profiles' | 'transaction'>; clock: Clock },
  ) {}

  async join(): Promise<AttemptRole> {
    const { run, sandbox, signal, logger } = this.attempt;
    const source = this.source();
    const state = source === null ? null : this.deps.profiles.stateOf(source);
    if (source !== null && run.profile_mode === 'read_write') this.writeBack(source);
    if (run.save_profile !== null && run.save_profile !== source?.name) {
      const target = this.ensure(run.save_profile);
      if (target !== null) this.writeBack(target);
    }
    if (source !== null) this.recordUse(source);

    const loaded = await this.attempt.time('profile.load', () => sandbox.useLogin({ name: source?.name ?? run.save_profile ?? run.profile!, state }, signal));
    logger.info({ profile: source?.name ?? null, saves: this.targets.map((t) => t.row.name), state: state !== null, warmBrowser: state !== null && !loaded.launched }, 'saved login in the browser');

    const check = source === null || state === null ? null : checkOf(source);
    let checked: LoginCheckResult | null = null;
    if (source !== null && check !== null) {
      checked = await this.attempt.time('profile.check', () => sandbox.checkLogin(check, signal));
      this.deps.profiles.recordCheck(source, checked);
      // A profile found signed out is signed in again by this run, which saves it then, read mode or not.
      if (checked.outcome === 'signed_out' && !this.targets.some((t) => t.row.id === source.id)) this.writeBack(source);
    }
    return {
      joined: { briefing: this.briefing(source, state, checked) },
      settle: (outcome) => this.settle(outcome, checked?.outcome === 'signed_out' ? source : null),
      close: async () => this.release(),
    };
  }

  /** The run's profile (its own, else its job's): made empty for a read_write run when there is none yet. */
  private source(): ProfileRow | null {
    const { run } = this.attempt;
    if (run.profile === null) return null;
    const found = this.deps.profiles.byName(run.org_id, run.profile);
    if (found !== null) return found;
    if (run.profile_mode === 'read') {
      throw new ConnectionRequiredError(
        run.profile,
        `the run needs the profile '${run.profile}', which does not exist: save one with save_profile, from a run's live view ("save this login"), or with errand profiles import`,
      );
    }
    return this.ensure(run.profile);
  }

  /** The profile of this name, made empty when there is none; null (and a warning) when it cannot be made. */
  private ensure(name: string): ProfileRow | null {
    try {
      return this.deps.profiles.ensure(this.attempt.run.org_id, name);
    } catch (err) {
      if (!(err instanceof ErrandError)) throw err;
      this.warnings.push(`the profile ${name} could not be made, so the run does not save to it: ${err.message}`);
      return null;
    }
  }

  /** Takes the profile's writer lease for this run, or says who holds it. */
  private writeBack(row: ProfileRow): void {
    const { run } = this.attempt;
    if (this.deps.store.profiles.claimWriter(row.id, run.id)) {
      this.claimed.push(row);
      const current = this.deps.store.profiles.get(run.org_id, row.id) ?? row;
      this.targets.push({ row: current, version: current.version });
      return;
    }
    const holder = this.deps.store.profiles.get(run.org_id, row.id)?.writer_run_id ?? 'another run';
    this.warnings.push(`the profile ${row.name} is being written back by ${holder}, which is running: this run used it read-only and did not save it`);
  }

  private recordUse(row: ProfileRow): void {
    const { run } = this.attempt;
    const access = this.targets.some((t) => t.row.id === row.id) ? 'read_write' : 'read';
    this.deps.store.transaction((uow) =>
      this.deps.store.profiles.recordUse(uow, { profile_id: row.id, run_id: run.id, attempt: run.attempt, access, used_at: isoTime(this.deps.clock.now()) }),
    );
  }

  /** The browser's state saved to the run's targets when it succeeded; what could not be saved said in a warning. */
  private async settle(outcome: RunOutcome, signedInAgain: ProfileRow | null): Promise<(outcome: RunOutcome) => RunOutcome> {
    const warnings = [...this.warnings];
    if (outcome.status === 'succeeded' && this.targets.length > 0) {
      let state: BrowserState | null = null;
      try {
        state = await this.attempt.sandbox.readLogin(AbortSignal.timeout(READ_TIMEOUT_MS));
      } catch (err) {
        this.attempt.logger.warn({ err }, "the browser's state could not be read back");
        warnings.push(`the browser's state could not be read back, so no profile was saved: ${err instanceof Error ? err.message : String(err)}`);
      }
      for (const target of state === null ? [] : this.targets) {
        const saved = this.deps.profiles.saveState(target.row, state!, { runId: this.attempt.run.id, via: 'run', version: target.version });
        if (!saved.saved) warnings.push(`the profile ${target.row.name} was not saved: ${saved.why}`);
        else if (signedInAgain?.id === target.row.id) this.deps.profiles.markSignedIn(saved.row, `signed in again by run ${this.attempt.run.id}, and saved`);
      }
    }
    return (changed) => (warnings.length === 0 ? changed : { ...changed, warnings: [...changed.warnings, ...warnings] });
  }

  private release(): void {
    for (const row of this.claimed) this.deps.store.profiles.releaseWriter(row.id, this.attempt.run.id);
  }

  /** What the agent is told after its task: signed in where, or to sign in (and how), and what is saved. */
  private briefing(source: ProfileRow | null, state: BrowserState | null, checked: LoginCheckResult | null): string {
    const saves = this.targets.map((t) => `'${t.row.name}'`);
    const saving = saves.length === 0 ? '' : ` When the run succeeds, the browser's state (cookies and each site's storage) is saved as the profile ${saves.join(' and ')}, so that later runs start signed in.`;
    const signIn =
      'Sign in with the credentials the run has, typed by reference ({{secret:<connection>}}, {{totp:<connection>}}): never ask for them or write them out. ' +
      'If you cannot finish signing in (a code sent by SMS or email you cannot read, a captcha, a password that no longer works), ask a person with request_human, kind "takeover", obstacle "login": they sign in in the live browser, and their sign-in is kept with the run.';
    if (source === null || state === null) {
      const which = source === null ? 'with no saved login' : `with the saved login '${source.name}' empty (never saved, or erased at its expiry)`;
      return `The browser starts signed out, ${which}. If the task needs you signed in: ${signIn}${saving}`;
    }
    const sites = (JSON.parse(source.origins) as string[]).join(', ');
    if (checked?.outcome === 'signed_out') {
      return `The browser holds the saved login '${source.name}' (${sites}), but it is signed out: ${checked.detail}. ${signIn}${saving}`;
    }
    const seen = checked?.outcome === 'signed_in' ? ` (checked: ${checked.detail})` : '';
    return `The browser starts signed in: it holds the saved login '${source.name}' for ${sites}${seen}. Go straight to what the task needs; do not sign in again unless a page asks you to, and then: ${signIn}${saving}`;
  }
}
