import type { Command } from 'commander';
import { UsageError } from '../../cli-errors.js';
import { contextOf, type CliContext } from '../../context.js';
import { collect, parseKeyValues, readJsonObject } from '../../flag-parsers.js';
import { examples } from '../../help.js';
import { printAccepted } from './envelope-view.js';
import { followToEnvelope } from './wait-for-run.js';

export function registerRunsReplay(runs: Command): void {
  runs
    .command('replay')
    .description("start a run of a run's job that replays the job's recipe, with other inputs (the agent takes over where the page changed)")
    .argument('<id>', 'run id (run_...) of a job')
    .option('--input <key=value>', 'an input value (repeatable; values are strings)', collect)
    .option('--input-json <json|@file>', 'inputs as a JSON object (--input entries override its members)')
    .option('--wait', "follow the new run's events until it ends; then print its envelope")
    .addHelpText('after', examples('errand runs replay run_01... --input sku=B-200 --wait', 'errand runs replay run_01... --input-json @inputs.json --json'))
    .action(async (id: string, flags: { input?: string[]; inputJson?: string; wait?: boolean }, c: Command) => {
      const inputs = { ...(flags.inputJson === undefined ? {} : readJsonObject(flags.inputJson, '--input-json')), ...parseKeyValues(flags.input ?? [], '--input') };
      await replayRun(contextOf(c), { id, inputs, wait: flags.wait === true });
    });
}

export async function replayRun(ctx: CliContext, options: { id: string; inputs: Record<string, unknown>; wait: boolean }): Promise<void> {
  const api = ctx.api();
  const run = await api.runs.get(options.id);
  if (run.job_id === null) throw new UsageError(`${options.id} is not a run of a job: only a job has a recipe (errand runs rerun runs it again with the agent)`);
  const accepted = await api.runs.create({ job_id: run.job_id, ...(Object.keys(options.inputs).length === 0 ? {} : { inputs: options.inputs }), replay: 'auto' });
  if (!options.wait) {
    printAccepted(ctx, accepted);
    return;
  }
  if (!ctx.json) ctx.out.note(`started ${accepted.task_id} (a replay of job ${run.job_id}'s recipe); following it until it ends`);
  await followToEnvelope(ctx, accepted.task_id);
}
