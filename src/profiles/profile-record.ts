import type { ProfileRow, ProfileSavedVia } from '../store/profiles-table.js';
import type { LoginCheck } from '../sandbox/protocol.js';

/** A profile as every read answers it: never its state, only which sites it holds and how big it is. */
export interface Profile {
  id: string;
  object: 'profile';
  name: string;
  has_state: boolean;
  origins: string[];
  size_bytes: number;
  saved_at: string | null;
  saved_by_run_id: string | null;
  saved_via: ProfileSavedVia | null;
  last_used_at: string | null;
  last_used_by_run_id: string | null;
  check: { url: string; text: string | null; role: string | null; name: string | null } | null;
  health: 'unknown' | 'signed_in' | 'signed_out' | 'expired';
  health_detail: string | null;
  checked_at: string | null;
  expires_at: string | null;
  created_at: string;
  updated_at: string;
}

/** Whether the profile's expiry has come (its state is then erased, and runs start signed out). */
export function isExpired(row: ProfileRow, nowIso: string): boolean {
  return row.expires_at !== null && row.expires_at <= nowIso;
}

/** How the profile's page tells it is signed in, as the sandbox checks it; null when nobody said. */
export function checkOf(row: ProfileRow): LoginCheck | null {
  if (row.check_url === null) return null;
  return {
    url: row.check_url,
    ...(row.check_text === null ? {} : { text: row.check_text }),
    ...(row.check_role === null ? {} : { role: row.check_role }),
    ...(row.check_name === null ? {} : { name: row.check_name }),
  };
}

export function toProfile(row: ProfileRow, nowIso: string): Profile {
  const expired = isExpired(row, nowIso);
  return {
    id: row.id,
    object: 'profile',
    name: row.name,
    has_state: row.state_enc !== null && !expired,
    origins: JSON.parse(row.origins) as string[],
    size_bytes: row.state_bytes,
    saved_at: row.saved_at,
    saved_by_run_id: row.saved_by_run_id,
    saved_via: row.saved_via,
    last_used_at: row.last_used_at,
    last_used_by_run_id: row.last_used_by_run_id,
    check: row.check_url === null ? null : { url: row.check_url, text: row.check_text, role: row.check_role, name: row.check_name },
    health: expired ? 'expired' : row.health,
    health_detail: expired ? `its expiry (${row.expires_at}) has passed: its state is erased` : row.health_detail,
    checked_at: row.checked_at,
    expires_at: row.expires_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
