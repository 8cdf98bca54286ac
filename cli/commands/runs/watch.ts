import type { Command } from 'commander';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { followToEnvelope } from './wait-for-run.js';

export function registerRunsWatch(runs: Command): void {
  runs
    .command('watch')
    .description("follow a run's events until it ends (status, each step, cost so far), then print its envelope")
    .argument('<id>', 'run id (run_...)')
    .addHelpText('after', '\nExit status: 0 when the run succeeded, 1 when it failed or was cancelled. An ended run is replayed.')
    .addHelpText('after', examples('errand runs watch run_01...', 'errand runs watch run_01... --json | jq .result'))
    .action(async (id: string, _flags: unknown, c: Command) => {
      await watchRun(contextOf(c), { id });
    });
}

export async function watchRun(ctx: CliContext, options: { id: string }): Promise<void> {
  await followToEnvelope(ctx, options.id);
}
