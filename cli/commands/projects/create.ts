import type { Command } from 'commander';
import { contextOf, type CliContext } from '../../context.js';
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
    .action(async (name: string, flags: { description?: string }, cmd: Command) => {
      await createProject(contextOf(cmd), { name, ...flags });
    });
}

export async function createProject(ctx: CliContext, options: CreateProjectOptions): Promise<void> {
  const project = await ctx.api().createProject({ name: options.name, ...(options.description === undefined ? {} : { description: options.description }) });
  printProject(ctx, project);
}
