import type { Command } from 'commander';
import { SilentExit } from '../../cli-errors.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { printProfile, resolveProfile } from './profile-view.js';

export function registerProfilesCheck(profiles: Command): void {
  profiles
    .command('check')
    .description("check now whether a profile is still signed in: its state loaded in a sandbox's browser, its check's page looked at (signed out: profile.signed_out)")
    .addHelpText('after', examples('errand profiles check acme', 'errand profiles check prf_01... --json'))
    .argument('<profile>', 'id (prf_...) or name')
    .addHelpText('after', '\nExit status: 0 when the profile is signed in, 1 otherwise (health and detail say what the page showed).')
    .action(async (ref: string, _flags: unknown, cmd: Command) => {
      await checkProfile(contextOf(cmd), { ref });
    });
}

export async function checkProfile(ctx: CliContext, options: { ref: string }): Promise<void> {
  const api = ctx.api();
  const checked = await api.profiles.check(await resolveProfile(api, options.ref));
  printProfile(ctx, checked);
  if (checked.health !== 'signed_in') throw new SilentExit(1);
}
