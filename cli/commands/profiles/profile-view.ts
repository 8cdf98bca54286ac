import type { Errand, Profile } from '../../api.js';
import { UserError } from '../../cli-errors.js';
import type { CliContext } from '../../context.js';
import type { Column } from '../../output.js';

export const profileColumns: Column<Profile>[] = [
  { header: 'ID', value: (p) => p.id },
  { header: 'NAME', value: (p) => p.name, max: 40 },
  { header: 'HEALTH', value: (p) => (p.has_state ? p.health : `${p.health}, empty`) },
  { header: 'SITES', value: (p) => p.origins.join(' '), max: 50 },
  { header: 'SAVED', value: (p) => (p.saved_at === null ? 'never' : `${p.saved_at} (${p.saved_via ?? ''})`) },
  { header: 'LAST USED', value: (p) => p.last_used_at ?? 'never' },
];

/** How the profile tells it is signed in, in words: `text "Sign out" at https://...`. */
export function checkText(check: Profile['check']): string | null {
  if (check === null) return null;
  const what = check.text !== null ? `text "${check.text}"` : `role ${check.role ?? ''}${check.name === null ? '' : ` "${check.name}"`}`;
  return `${what} at ${check.url}`;
}

export function printProfile(ctx: CliContext, p: Profile): void {
  ctx.out.result(p, () =>
    ctx.out.fields([
      ['id', p.id],
      ['name', p.name],
      ['state', p.has_state ? `saved, ${p.size_bytes} bytes (never shown)` : 'none'],
      ['sites', p.origins.join(', ')],
      ['saved', p.saved_at],
      ['saved via', p.saved_via === null ? null : p.saved_by_run_id === null ? p.saved_via : `${p.saved_via} (${p.saved_by_run_id})`],
      ['last used', p.last_used_at === null ? null : `${p.last_used_at} (${p.last_used_by_run_id ?? ''})`],
      ['check', checkText(p.check)],
      ['health', p.health],
      ['detail', p.health_detail],
      ['checked', p.checked_at],
      ['expires', p.expires_at ?? 'never'],
      ['created', p.created_at],
      ['updated', p.updated_at],
    ]),
  );
}

/** A profile by id (`prf_...`) or by name (names are unique in the organisation). */
export async function resolveProfile(api: Errand, ref: string): Promise<string> {
  if (/^prf_[0-9a-z]{26}$/.test(ref)) return ref;
  for await (const p of api.profiles.list({ limit: 200 })) if (p.name === ref) return p.id;
  throw new UserError(`no profile named ${ref}`);
}
