import type { Command } from 'commander';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { printAccepted } from './envelope-view.js';
import { followToEnvelope } from './wait-for-run.js';

export function registerRunsRerun(runs: Command): void {
  runs
    .command('rerun')
    .description('start a new run of what an earlier run was asked (same prompt, inputs, schema, model, job), under your key')
    .argument('<id>', 'run id (run_...)')
    .option('--wait', "follow the new run's events until it ends; then print its envelope")
    .addHelpText('after', examples('errand runs rerun run_01...', 'errand runs rerun run_01... --wait --json'))
    .action(async (id: string, flags: { wait?: boolean }, c: Command) => {
      await rerun(contextOf(c), { id, wait: flags.wait === true });
    });
}

export async function rerun(ctx: CliContext, options: { id: string; wait: boolean }): Promise<void> {
  const accepted = await ctx.api().runs.rerun(options.id);
  if (!options.wait) {
    printAccepted(ctx, accepted);
    return;
  }
  if (!ctx.json) ctx.out.note(`started ${accepted.task_id} (a rerun of ${options.id}); following it until it ends`);
  await followToEnvelope(ctx, accepted.task_id);
}
