import type { Command } from 'commander';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { printProject } from './columns.js';

export function registerProjectsGet(projects: Command): void {
  projects
    .command('get')
    .description('show a project')
    .argument('<id>', 'project id (proj_...)')
    .addHelpText('after', examples('errand projects get proj_01...', 'errand projects get proj_01... --json'))
    .action(async (id: string, _flags: unknown, cmd: Command) => {
      await getProject(contextOf(cmd), { id });
    });
}

export async function getProject(ctx: CliContext, options: { id: string }): Promise<void> {
  printProject(ctx, await ctx.api().projects.get(options.id));
}
