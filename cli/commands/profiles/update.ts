import { Option, type Command } from 'commander';
import type { ProfileUpdateParams } from '../../api.js';
import { UsageError } from '../../cli-errors.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { readStorageState } from './import.js';
import { addCheckOptions, checkOf, type CheckFlags } from './profile-flags.js';
import { printProfile, resolveProfile } from './profile-view.js';

interface UpdateFlags extends CheckFlags {
  name?: string;
  clearCheck?: boolean;
  neverExpires?: boolean;
  state?: string;
}

export function registerProfilesUpdate(profiles: Command): void {
  addCheckOptions(
    profiles
      .command('update')
      .description('rename a profile, change how it is checked or when it expires, or replace its state with a Playwright storage-state file')
      .addHelpText('after', examples('errand profiles update acme --check-url https://acme.example/account --check-text "Sign out"', 'errand profiles update acme --state state.json', 'errand profiles update acme --never-expires'))
      .argument('<profile>', 'id (prf_...) or name')
      .option('--name <name>', 'rename it (runs name the new name from then on)')
      .addOption(new Option('--clear-check', 'stop checking it').conflicts(['checkUrl', 'checkText', 'checkRole', 'checkName']))
      .addOption(new Option('--never-expires', 'keep its state until deleted').conflicts('expires'))
      .option('--state <file>', 'replace its state with this storage-state file (- for stdin)'),
  ).action(async (ref: string, flags: UpdateFlags, cmd: Command) => {
    const check = checkOf(flags);
    const body: ProfileUpdateParams = {
      ...(flags.name === undefined ? {} : { name: flags.name }),
      ...(check !== undefined ? { check } : flags.clearCheck === true ? { check: null } : {}),
      ...(flags.expires !== undefined ? { expires_at: flags.expires } : flags.neverExpires === true ? { expires_at: null } : {}),
      ...(flags.state === undefined ? {} : { state: readStorageState(flags.state) }),
    };
    if (Object.keys(body).length === 0) throw new UsageError('nothing to change: give at least one flag');
    await updateProfile(contextOf(cmd), ref, body);
  });
}

export async function updateProfile(ctx: CliContext, ref: string, body: ProfileUpdateParams): Promise<void> {
  const api = ctx.api();
  printProfile(ctx, await api.profiles.update(await resolveProfile(api, ref), body));
}
