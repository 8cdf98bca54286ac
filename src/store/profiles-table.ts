import { defineColumns, fixed, patchable, type InsertOf, type PatchOf, type RowOf } from './columns.js';

/** Whether a profile was last seen signed in (profiles/profile-health.ts); `unknown` until a check or a run says. */
export type ProfileHealth = 'unknown' | 'signed_in' | 'signed_out';
/** How its state was last saved: by a run that ended well, by a person on the live view, or imported. */
export type ProfileSavedVia = 'run' | 'live_view' | 'import';
/** What a run may do with a profile: load it, or load it and write it back when it ends well. */
export type ProfileAccess = 'read' | 'read_write';

/**
 * The columns of `profiles`, described once. `state_enc` is the browser's state (Playwright's storage state, JSON)
 * sealed by `SecretBox` with the profile's id as associated data; it never leaves the profiles code in any other form
 * than the one the sandbox's browser loads. `state_enc`, `version` and the columns saved with it change only through
 * `ProfilesStore.saveState` (a compare-and-set on `version`), `health` only through `ProfilesStore.setHealth` (its
 * lifecycle), and `writer_run_id` only through the lease statements.
 */
export const profileColumns = defineColumns('profiles', {
  id: fixed<string>(),
  org_id: fixed<string>(),
  name: patchable<string>(),
  state_enc: fixed<string | null>(),
  state_bytes: fixed<number>(),
  origins: fixed<string>(),
  version: fixed<number>(),
  saved_at: fixed<string | null>(),
  saved_by_run_id: fixed<string | null>(),
  saved_via: fixed<ProfileSavedVia | null>(),
  last_used_at: patchable<string | null>(null),
  last_used_by_run_id: patchable<string | null>(null),
  check_url: patchable<string | null>(null),
  check_text: patchable<string | null>(null),
  check_role: patchable<string | null>(null),
  check_name: patchable<string | null>(null),
  health: fixed<ProfileHealth>(),
  health_detail: patchable<string | null>(null),
  checked_at: patchable<string | null>(null),
  expires_at: patchable<string | null>(null),
  writer_run_id: fixed<string | null>(),
  created_at: fixed<string>(),
  updated_at: patchable<string>(),
});

export type ProfileRow = RowOf<typeof profileColumns>;
export type NewProfileRow = InsertOf<typeof profileColumns>;
export type ProfilePatch = PatchOf<typeof profileColumns>;

/** One attempt's use of a profile (`profile_uses`). */
export interface ProfileUseRow {
  profile_id: string;
  run_id: string;
  attempt: number;
  access: ProfileAccess;
  used_at: string;
  saved_at: string | null;
}
