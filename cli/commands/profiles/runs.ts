import type { Command } from 'commander';
import type { ProfileUse } from '../../api.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { addListOptions, fetchList, listOptionsOf, printList, type ListOptions } from '../../list-options.js';
import type { Column } from '../../output.js';
import { resolveProfile } from './profile-view.js';

const useColumns: Column<ProfileUse>[] = [
  { header: 'RUN', value: (u) => u.run_id },
  { header: 'ATTEMPT', value: (u) => String(u.attempt) },
  { header: 'ACCESS', value: (u) => u.access },
  { header: 'USED', value: (u) => u.used_at },
  { header: 'SAVED', value: (u) => u.saved_at ?? 'no' },
];

export function registerProfilesRuns(profiles: Command): void {
  addListOptions(
    profiles
      .command('runs')
      .description('the runs that used a profile, newest first: read or read_write, and whether each saved it')
      .addHelpText('after', examples('errand profiles runs acme', 'errand profiles runs acme --all --json'))
      .argument('<profile>', 'id (prf_...) or name'),
  ).action(async (ref: string, flags: Parameters<typeof listOptionsOf>[0], cmd: Command) => {
    await listProfileRuns(contextOf(cmd), ref, listOptionsOf(flags));
  });
}

export async function listProfileRuns(ctx: CliContext, ref: string, options: ListOptions): Promise<void> {
  const api = ctx.api();
  const id = await resolveProfile(api, ref);
  printList(ctx, await fetchList(options, (q) => api.profiles.runs(id, q)), useColumns, 'no run has used it');
}
