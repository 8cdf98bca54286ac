import type { Command } from 'commander';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { addListOptions, fetchList, listOptionsOf, printList, type ListOptions } from '../../list-options.js';
import { profileColumns } from './profile-view.js';

export function registerProfilesList(profiles: Command): void {
  addListOptions(profiles.command('list').description('list profiles (saved logins): the sites each holds, its health and when it was saved and used').addHelpText('after', examples('errand profiles list', 'errand profiles list --all --json'))).action(
    async (flags: Parameters<typeof listOptionsOf>[0], cmd: Command) => {
      await listProfiles(contextOf(cmd), listOptionsOf(flags));
    },
  );
}

export async function listProfiles(ctx: CliContext, options: ListOptions): Promise<void> {
  const api = ctx.api();
  printList(ctx, await fetchList(options, (q) => api.profiles.list(q)), profileColumns, 'no profiles');
}
