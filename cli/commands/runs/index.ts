import type { Command } from 'commander';
import { examples } from '../../help.js';
import { registerRunsAnswer } from './answer.js';
import { registerRunsCancel } from './cancel.js';
import { registerRunsCreate } from './create.js';
import { registerRunsFiles } from './files.js';
import { registerRunsGet } from './get.js';
import { registerRunsList } from './list.js';
import { registerRunsLiveRevoke } from './live-revoke.js';
import { registerRunsOpen } from './open.js';
import { registerRunsReplay } from './replay.js';
import { registerRunsRerun } from './rerun.js';
import { registerRunsSteps } from './steps.js';
import { registerRunsWatch } from './watch.js';

export function registerRuns(program: Command): void {
  const runs = program.command('runs').description('runs: start, watch, list, cancel and inspect agent tasks (through the API)').addHelpText('after', examples('errand runs create \'What is the title of https://example.com?\' --wait', 'errand runs watch run_01...', 'errand runs list --json'));
  registerRunsCreate(runs);
  registerRunsWatch(runs);
  registerRunsList(runs);
  registerRunsGet(runs);
  registerRunsSteps(runs);
  registerRunsFiles(runs);
  registerRunsOpen(runs);
  registerRunsAnswer(runs);
  registerRunsCancel(runs);
  registerRunsRerun(runs);
  registerRunsReplay(runs);
  registerRunsLiveRevoke(runs);
}
