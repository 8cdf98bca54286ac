import type { ProfilesService } from '../../profiles/profiles-service.js';

/** The `profile` argument of the tools that act on one profile: what a person calls it, or its id. */
export const profileRefSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 128,
  description: "The profile's name (as runs name it in profile), or its id (prf_...), from list_profiles.",
} as const;

/** The profile's id, by its id or its name (names are unique in the organisation). */
export function profileIdOf(profiles: ProfilesService, orgId: string, ref: string): string {
  if (/^prf_[0-9a-z]{26}$/.test(ref)) return ref;
  const row = profiles.byName(orgId, ref);
  // An unknown name is answered as an unknown id is: the REST API's not-found error.
  return row === null ? ref : row.id;
}
