import type { Command } from 'commander';
import { examples } from '../../help.js';
import { registerProjectsCreate } from './create.js';
import { registerProjectsDelete } from './delete.js';
import { registerProjectsGet } from './get.js';
import { registerProjectsList } from './list.js';
import { registerProjectsUpdate } from './update.js';

export function registerProjects(program: Command): void {
  const projects = program.command('projects').description('projects: containers of jobs (through the API)').addHelpText('after', examples('errand projects create \'Price checks\'', 'errand projects list'));
  registerProjectsList(projects);
  registerProjectsCreate(projects);
  registerProjectsGet(projects);
  registerProjectsUpdate(projects);
  registerProjectsDelete(projects);
}
