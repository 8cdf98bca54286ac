import type { Command } from 'commander';
import { examples } from '../../help.js';
import { registerJobsCreate } from './create.js';
import { registerJobsDelete } from './delete.js';
import { registerJobsEval } from './eval.js';
import { registerJobsGet } from './get.js';
import { registerJobsList } from './list.js';
import { registerJobsRecipe } from './recipe.js';
import { registerJobsUpdate } from './update.js';

export function registerJobs(program: Command): void {
  const jobs = program.command('jobs').description('jobs: reusable task templates (through the API); start one with errand runs create --job ID').addHelpText('after', examples('errand jobs list', 'errand jobs create --project proj_01... --name price --prompt \'Price of {{sku}}\''));
  registerJobsList(jobs);
  registerJobsCreate(jobs);
  registerJobsGet(jobs);
  registerJobsUpdate(jobs);
  registerJobsDelete(jobs);
  registerJobsRecipe(jobs);
  registerJobsEval(jobs);
}
