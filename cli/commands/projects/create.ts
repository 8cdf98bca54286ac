import type { Command } from 'commander';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { printProject } from './columns.js';

export interface CreateProjectOptions {
  name: string;
  description?: string;
}

export function registerProjectsCreate(projects: Command): void {
  projects
    .command('create')
    .description('create a project to hold jobs')
    .argument('<name>', 'project name')
    .option('--description <text>', 'what the project is for')
    .addHelpText('after', examples('errand projects create \'Price checks\'', 'errand projects create \'Price checks\' --description \'Shops we watch\' --json'))
    .action(async (name: string, flags: { description?: string }, cmd: Command) => {
      await createProject(contextOf(cmd), { name, ...flags });
    });
}

export async function createProject(ctx: CliContext, options: CreateProjectOptions): Promise<void> {
  const project = await ctx.api().projects.create({ name: options.name, ...(options.description === undefined ? {} : { description: options.description }) });
  printProject(ctx, project);
}
