import type { Command } from 'commander';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { resolveProfile } from './profile-view.js';

export function registerProfilesDelete(profiles: Command): void {
  profiles
    .command('delete')
    .description('delete a profile and every sealed copy of its state (runs naming it start signed out)')
    .addHelpText('after', examples('errand profiles delete acme', 'errand profiles delete prf_01... --json'))
    .argument('<profile>', 'id (prf_...) or name')
    .action(async (ref: string, _flags: unknown, cmd: Command) => {
      await deleteProfile(contextOf(cmd), { ref });
    });
}

export async function deleteProfile(ctx: CliContext, options: { ref: string }): Promise<void> {
  const api = ctx.api();
  const deleted = await api.profiles.delete(await resolveProfile(api, options.ref));
  ctx.out.result(deleted, () => ctx.out.line(`deleted profile ${deleted.id} and its saved login`));
}
