import { Option, type Command } from 'commander';
import type { CreateJobRunBody, CreateRunBody, RunAccepted } from '../../api-client.js';
import { DEFAULT_MODEL, MODEL_ALIASES, type ModelAlias } from '../../../src/models/models.js';
import { SilentExit, UsageError } from '../../cli-errors.js';
import { contextOf, type CliContext } from '../../context.js';
import { collect, integerFlag, parseKeyValues, readJsonObject } from '../../flag-parsers.js';
import { exitCodeOf, printAccepted, printEnvelope } from './envelope-view.js';
import { waitForRun } from './wait-for-run.js';

export type CreateRunOptions =
  | { kind: 'prompt'; body: CreateRunBody; wait: boolean; intervalMs: number }
  | { kind: 'job'; jobId: string; body: CreateJobRunBody; wait: boolean; intervalMs: number };

interface CreateRunFlags {
  prompt?: string;
  job?: string;
  input?: string[];
  inputJson?: string;
  outputSchema?: string;
  model?: ModelAlias;
  project?: string;
  name?: string;
  callbackUrl?: string;
  idempotencyKey?: string;
  connection?: string[];
  timeoutS?: number;
  wait?: boolean;
  interval: number;
}

export function registerRunsCreate(runs: Command): void {
  runs
    .command('create')
    .description('start a run from a prompt (or of a job with --job)')
    .addOption(new Option('--prompt <text>', 'the task; {{placeholders}} are filled from the inputs').conflicts('job'))
    .option('--job <id>', 'run this job (job_...) instead of a prompt')
    .option('--input <key=value>', 'an input value (repeatable; values are strings)', collect)
    .option('--input-json <json|@file>', 'inputs as a JSON object (--input entries override its members)')
    .option('--output-schema <json|@file>', 'JSON Schema the result must satisfy')
    .addOption(new Option('--model <alias>', `model (default ${DEFAULT_MODEL})`).choices(MODEL_ALIASES).conflicts('job'))
    .addOption(new Option('--project <id>', 'project (default: the "API Runs" project)').conflicts('job'))
    .option('--name <label>', 'a label for the run')
    .option('--callback-url <url>', 'https target of the signed completion webhook')
    .option('--idempotency-key <key>', 'a replay within 24 h returns the original run')
    .option('--connection <name>', 'a connection the run needs (repeatable)', collect)
    .addOption(new Option('--timeout-s <seconds>', 'longest the run may execute').argParser(integerFlag(1, 86_400)))
    .option('--wait', 'wait for the run to end, showing its progress; then print the envelope')
    .addOption(new Option('--interval <ms>', 'how often --wait polls').argParser(integerFlag(100, 60_000)).default(1000))
    .addHelpText(
      'after',
      '\nExit status with --wait: 0 when the run succeeded, 1 when it failed or was cancelled (the envelope is printed either way).',
    )
    .action(async (flags: CreateRunFlags, cmd: Command) => {
      await createRun(contextOf(cmd), createRunOptionsOf(flags));
    });
}

export function createRunOptionsOf(flags: CreateRunFlags): CreateRunOptions {
  const inputs = { ...(flags.inputJson === undefined ? {} : readJsonObject(flags.inputJson, '--input-json')), ...parseKeyValues(flags.input ?? [], '--input') };
  const common: CreateJobRunBody = {
    ...(Object.keys(inputs).length === 0 ? {} : { inputs }),
    ...(flags.outputSchema === undefined ? {} : { output_schema: readJsonObject(flags.outputSchema, '--output-schema') }),
    ...(flags.name === undefined ? {} : { name: flags.name }),
    ...(flags.callbackUrl === undefined ? {} : { callback_url: flags.callbackUrl }),
    ...(flags.idempotencyKey === undefined ? {} : { idempotency_key: flags.idempotencyKey }),
    ...(flags.connection === undefined ? {} : { connections: flags.connection }),
    ...(flags.timeoutS === undefined ? {} : { timeout_s: flags.timeoutS }),
  };
  const wait = flags.wait === true;
  if (flags.job !== undefined) return { kind: 'job', jobId: flags.job, body: common, wait, intervalMs: flags.interval };
  if (flags.prompt === undefined) throw new UsageError('give --prompt <text>, or --job <id> to run a job');
  const body: CreateRunBody = {
    prompt: flags.prompt,
    ...common,
    ...(flags.model === undefined ? {} : { model: flags.model }),
    ...(flags.project === undefined ? {} : { project_id: flags.project }),
  };
  return { kind: 'prompt', body, wait, intervalMs: flags.interval };
}

export async function createRun(ctx: CliContext, options: CreateRunOptions): Promise<void> {
  const api = ctx.api();
  const accepted: RunAccepted = options.kind === 'job' ? await api.createJobRun(options.jobId, options.body) : await api.createRun(options.body);
  if (!options.wait) {
    printAccepted(ctx, accepted);
    return;
  }
  if (!ctx.json) ctx.out.note(`started ${accepted.task_id}; waiting for it to end (Ctrl-C stops waiting, not the run)`);
  const envelope = await waitForRun(ctx, accepted.task_id, { intervalMs: options.intervalMs });
  printEnvelope(ctx, envelope);
  const code = exitCodeOf(envelope);
  if (code !== 0) throw new SilentExit(code);
}
