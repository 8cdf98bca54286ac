import type { Command } from 'commander';
import type { ProfileCreateParams } from '../../api.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { addCheckOptions, checkOf, type CheckFlags } from './profile-flags.js';
import { printProfile } from './profile-view.js';

export function registerProfilesCreate(profiles: Command): void {
  addCheckOptions(
    profiles
      .command('create')
      .description("make an empty profile and say how to check it, before a run (--save-profile) or a person on the live view (Save this login) fills it")
      .addHelpText('after', examples('errand profiles create acme --check-url https://acme.example/account --check-text "Sign out"', 'errand profiles create bank --expires 30d'))
      .argument('<name>', 'letters, digits, ., _ and -, up to 64; unique in the organisation'),
  ).action(async (name: string, flags: CheckFlags, cmd: Command) => {
    await createProfile(contextOf(cmd), bodyOf(name, flags));
  });
}

export function bodyOf(name: string, flags: CheckFlags): ProfileCreateParams {
  const check = checkOf(flags);
  return { name, ...(check === undefined ? {} : { check }), ...(flags.expires === undefined ? {} : { expires_at: flags.expires }) };
}

export async function createProfile(ctx: CliContext, body: ProfileCreateParams): Promise<void> {
  printProfile(ctx, await ctx.api().profiles.create(body));
}
