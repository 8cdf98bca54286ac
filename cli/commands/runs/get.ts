import type { Command } from 'commander';
import { contextOf, type CliContext } from '../../context.js';
import { printEnvelope } from './envelope-view.js';

export function registerRunsGet(runs: Command): void {
  runs
    .command('get')
    .description("show a run's task envelope")
    .argument('<id>', 'run id (run_...)')
    .action(async (id: string, _flags: unknown, cmd: Command) => {
      await getRun(contextOf(cmd), { id });
    });
}

export async function getRun(ctx: CliContext, options: { id: string }): Promise<void> {
  printEnvelope(ctx, await ctx.api().getRun(options.id));
}
