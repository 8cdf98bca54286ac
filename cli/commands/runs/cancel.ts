import type { Command } from 'commander';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { printEnvelope } from './envelope-view.js';

export function registerRunsCancel(runs: Command): void {
  runs
    .command('cancel')
    .description('cancel a queued or running run (cancelling a cancelled run only warns)')
    .argument('<id>', 'run id (run_...)')
    .addHelpText('after', examples('errand runs cancel run_01...', 'errand runs cancel run_01... --json'))
    .action(async (id: string, _flags: unknown, cmd: Command) => {
      await cancelRun(contextOf(cmd), { id });
    });
}

export async function cancelRun(ctx: CliContext, options: { id: string }): Promise<void> {
  const api = ctx.api();
  const before = await api.runs.get(options.id);
  if (before.status === 'cancelled') {
    ctx.out.warn(`${before.task_id} is already cancelled`);
    printEnvelope(ctx, before);
    return;
  }
  printEnvelope(ctx, await api.runs.cancel(options.id));
}
