import type { Command } from 'commander';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { printEnvelope } from './envelope-view.js';

export function registerRunsGet(runs: Command): void {
  runs
    .command('get')
    .description("show a run's task envelope")
    .argument('<id>', 'run id (run_...)')
    .addHelpText('after', examples('errand runs get run_01...', 'errand runs get run_01... --json | jq .result'))
    .action(async (id: string, _flags: unknown, cmd: Command) => {
      await getRun(contextOf(cmd), { id });
    });
}

export async function getRun(ctx: CliContext, options: { id: string }): Promise<void> {
  printEnvelope(ctx, await ctx.api().runs.get(options.id));
}
