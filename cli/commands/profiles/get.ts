import type { Command } from 'commander';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { printProfile, resolveProfile } from './profile-view.js';

export function registerProfilesGet(profiles: Command): void {
  profiles
    .command('get')
    .description('show a profile (never its cookies or storage)')
    .addHelpText('after', examples('errand profiles get acme', 'errand profiles get prf_01... --json'))
    .argument('<profile>', 'id (prf_...) or name')
    .action(async (ref: string, _flags: unknown, cmd: Command) => {
      await getProfile(contextOf(cmd), { ref });
    });
}

export async function getProfile(ctx: CliContext, options: { ref: string }): Promise<void> {
  const api = ctx.api();
  printProfile(ctx, await api.profiles.get(await resolveProfile(api, options.ref)));
}
