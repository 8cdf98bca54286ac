import type { Command } from 'commander';
import { registerRunsCancel } from './cancel.js';
import { registerRunsCreate } from './create.js';
import { registerRunsGet } from './get.js';
import { registerRunsList } from './list.js';
import { registerRunsSteps } from './steps.js';

export function registerRuns(program: Command): void {
  const runs = program.command('runs').description('runs: start, watch, list, cancel and inspect agent tasks (through the API)');
  registerRunsCreate(runs);
  registerRunsList(runs);
  registerRunsGet(runs);
  registerRunsCancel(runs);
  registerRunsSteps(runs);
}
