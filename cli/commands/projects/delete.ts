import type { Command } from 'commander';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';

export function registerProjectsDelete(projects: Command): void {
  projects
    .command('delete')
    .description('delete a project, its jobs and their schedules (runs stay readable)')
    .argument('<id>', 'project id (proj_...)')
    .addHelpText('after', examples('errand projects delete proj_01...'))
    .action(async (id: string, _flags: unknown, cmd: Command) => {
      await deleteProject(contextOf(cmd), { id });
    });
}

export async function deleteProject(ctx: CliContext, options: { id: string }): Promise<void> {
  const deleted = await ctx.api().projects.delete(options.id);
  ctx.out.result(deleted, () => ctx.out.line(`deleted project ${deleted.id}`));
}
