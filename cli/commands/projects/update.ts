import { Option, type Command } from 'commander';
import type { ProjectUpdateParams } from '../../api.js';
import { UsageError } from '../../cli-errors.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { printProject } from './columns.js';

export interface UpdateProjectOptions {
  id: string;
  changes: ProjectUpdateParams;
}

export function registerProjectsUpdate(projects: Command): void {
  projects
    .command('update')
    .description('change a project (PATCH: only the fields given)')
    .argument('<id>', 'project id (proj_...)')
    .option('--name <name>', 'new name')
    .addOption(new Option('--description <text>', 'new description').conflicts('clearDescription'))
    .option('--clear-description', 'remove the description')
    .addHelpText('after', examples('errand projects update proj_01... --name Prices', 'errand projects update proj_01... --clear-description'))
    .action(async (id: string, flags: { name?: string; description?: string; clearDescription?: boolean }, cmd: Command) => {
      const changes: ProjectUpdateParams = {
        ...(flags.name === undefined ? {} : { name: flags.name }),
        ...(flags.description === undefined ? {} : { description: flags.description }),
        ...(flags.clearDescription ? { description: null } : {}),
      };
      await updateProject(contextOf(cmd), { id, changes });
    });
}

export async function updateProject(ctx: CliContext, options: UpdateProjectOptions): Promise<void> {
  if (Object.keys(options.changes).length === 0) throw new UsageError('nothing to change: give --name, --description or --clear-description');
  printProject(ctx, await ctx.api().projects.update(options.id, options.changes));
}
