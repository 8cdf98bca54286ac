import type { Command } from 'commander';
import type { StorageState } from '../../api.js';
import { UsageError } from '../../cli-errors.js';
import { contextOf, type CliContext } from '../../context.js';
import { readText } from '../../flag-parsers.js';
import { examples } from '../../help.js';
import { bodyOf } from './create.js';
import { addCheckOptions, type CheckFlags } from './profile-flags.js';
import { printProfile } from './profile-view.js';

export function registerProfilesImport(profiles: Command): void {
  addCheckOptions(
    profiles
      .command('import')
      .description("make a profile from a Playwright storage-state file (what context.storageState({ path }) writes): sealed by the daemon, never shown again")
      .addHelpText(
        'after',
        examples(
          'errand profiles import acme state.json --check-url https://acme.example/account --check-text "Sign out"',
          'errand profiles import acme - < state.json',
        ),
      )
      .argument('<name>', 'letters, digits, ., _ and -, up to 64; unique in the organisation')
      .argument('<file>', 'the storage-state JSON file, or - for stdin')
      .addHelpText('after', '\nTo sign in by hand and save the file: npx playwright codegen --save-storage=state.json https://acme.example'),
  ).action(async (name: string, file: string, flags: CheckFlags, cmd: Command) => {
    await importProfile(contextOf(cmd), name, readStorageState(file), flags);
  });
}

/** A Playwright storage-state file: a JSON object with `cookies` and `origins` (the daemon checks the rest). */
export function readStorageState(file: string): StorageState {
  const text = readText(file, '<file>');
  let state: unknown;
  try {
    state = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${file === '-' ? 'stdin' : file} is not JSON (${(err as Error).message}): give the file Playwright's storageState() wrote`, 'usage_error', '<file>');
  }
  if (typeof state !== 'object' || state === null || !Array.isArray((state as StorageState).cookies) || !Array.isArray((state as StorageState).origins)) {
    throw new UsageError(`${file === '-' ? 'stdin' : file} is not a Playwright storage state: it has no "cookies" and "origins" lists`, 'usage_error', '<file>');
  }
  return state as StorageState;
}

export async function importProfile(ctx: CliContext, name: string, state: StorageState, flags: CheckFlags): Promise<void> {
  const profile = await ctx.api().profiles.create({ ...bodyOf(name, flags), state });
  printProfile(ctx, profile);
}
