import { existsSync } from 'node:fs';
import { Option, type Command } from 'commander';
import type { CreateParams, JobRunCreateParams, RunCreateParams, RunCreated } from '../../api.js';
import { DEFAULT_MODEL, MODEL_ALIASES, type ModelAlias } from '../../../src/vocabulary/models.js';
import { UsageError } from '../../cli-errors.js';
import { contextOf, type CliContext } from '../../context.js';
import { collect, parseKeyValues, readJsonObject, readText } from '../../flag-parsers.js';
import { examples } from '../../help.js';
import { printAccepted, printCheck, printWarnings } from './envelope-view.js';
import { followToEnvelope } from './wait-for-run.js';
import { uploadOnce } from '../files/upload-path.js';
import { addRunOptionFlags, runOptionsOf, type RunOptionFlags } from './run-option-flags.js';

export type CreateRunOptions = ({ kind: 'prompt'; body: RunCreateParams } | { kind: 'job'; jobId: string; body: JobRunCreateParams }) & {
  wait: boolean;
  /** Only check: what creating the run would answer (refusals, estimate, warnings), nothing created. */
  check: boolean;
  /** `--file`s: paths to upload first, or ids of files uploaded before (issue 23). */
  files: string[];
};

export interface CreateRunFlags extends RunOptionFlags {
  prompt?: string;
  promptFile?: string;
  job?: string;
  input?: string[];
  inputJson?: string;
  model?: ModelAlias;
  project?: string;
  name?: string;
  callbackUrl?: string;
  idempotencyKey?: string;
  file?: string[];
  /** With --job only: replay the job's recipe or not (default: the job's replay). */
  replay?: 'auto' | 'off';
  wait?: boolean;
  check?: boolean;
}

export function registerRunsCreate(runs: Command): void {
  const create = runs
    .command('create')
    .description('start a run from a prompt (an argument, --prompt-file, or stdin with -), or of a job with --job')
    .argument('[prompt]', "the task; {{placeholders}} are filled from the inputs; '-' reads it from stdin")
    .addOption(new Option('--prompt <text>', 'the task, as a flag instead of the argument').conflicts(['job', 'promptFile']))
    .addOption(new Option('--prompt-file <path>', "read the task from a file ('-': stdin)").conflicts('job'))
    .option('--job <id>', 'run this job (job_...) instead of a prompt')
    .option('--input <key=value>', 'an input value (repeatable; values are strings)', collect)
    .option('--input-json <json|@file>', 'inputs as a JSON object (--input entries override its members)')
    .addOption(new Option('--model <alias>', `model (default ${DEFAULT_MODEL})`).choices(MODEL_ALIASES).conflicts('job'))
    .addOption(new Option('--project <id>', 'project (default: the "API Runs" project)').conflicts('job'))
    .option('--name <label>', 'a label for the run')
    .option('--callback-url <url>', 'https target of the signed completion webhook')
    .option('--idempotency-key <key>', 'a replay within 24 h returns the original run')
    .option('--file <path|id>', 'an input file, placed read-only in /workspace/in: a path (uploaded first, even with --check, unless the same name and content was uploaded before) or a file_ id (repeatable)', collect);
  addRunOptionFlags(create, 'run')
    .addOption(new Option('--replay <mode>', "with --job: auto replays the job's recipe without the model, off runs the agent (default: the job's replay)").choices(['auto', 'off']))
    .option('--wait', "follow the run's events (status, each step, cost so far) until it ends; then print the envelope")
    .addOption(new Option('--check', 'only check the run: the refusals, estimate and warnings creating it would give; nothing is created').conflicts('wait'))
    .addHelpText('after', '\nExit status with --wait: 0 when the run succeeded, 1 when it failed or was cancelled (the envelope is printed either way).')
    .addHelpText(
      'after',
      examples(
        "errand runs create 'What is the title of {{url}}?' --input url=https://example.com --wait",
        'errand runs create --prompt-file task.md --output-schema @schema.json --json',
        "echo 'Summarise https://example.com' | errand runs create - --wait",
        'errand runs create --job job_01... --input-json @inputs.json --idempotency-key order-17',
        "errand runs create 'Check the order page' --connection shop --model opus --check",
        "errand runs create 'Upload the invoice on the portal' --file ./invoice.pdf --connection portal --wait",
        "errand runs create 'What does the shop show in Germany?' --proxy de-proxy --wait",
      ),
    )
    .action(async (prompt: string | undefined, flags: CreateRunFlags, c: Command) => {
      await createRun(contextOf(c), createRunOptionsOf(prompt, flags));
    });
}

export function createRunOptionsOf(prompt: string | undefined, flags: CreateRunFlags): CreateRunOptions {
  const inputs = { ...(flags.inputJson === undefined ? {} : readJsonObject(flags.inputJson, '--input-json')), ...parseKeyValues(flags.input ?? [], '--input') };
  const common: JobRunCreateParams = {
    ...(Object.keys(inputs).length === 0 ? {} : { inputs }),
    ...(flags.name === undefined ? {} : { name: flags.name }),
    ...(flags.callbackUrl === undefined ? {} : { callback_url: flags.callbackUrl }),
    ...(flags.idempotencyKey === undefined ? {} : { idempotency_key: flags.idempotencyKey }),
    ...runOptionsOf(flags),
  };
  const wait = flags.wait === true;
  const check = flags.check === true;
  const files = flags.file ?? [];
  if (flags.job !== undefined) {
    if (prompt !== undefined) throw new UsageError('a job brings its own prompt: give either a prompt or --job, not both');
    return { kind: 'job', jobId: flags.job, body: { ...common, ...(flags.replay === undefined ? {} : { replay: flags.replay }) }, wait, check, files };
  }
  if (flags.replay !== undefined) throw new UsageError('--replay needs --job: only a job has a recipe to replay');
  const body: RunCreateParams = {
    prompt: promptOf(prompt, flags),
    ...common,
    ...(flags.model === undefined ? {} : { model: flags.model }),
    ...(flags.project === undefined ? {} : { project_id: flags.project }),
  };
  return { kind: 'prompt', body, wait, check, files };
}

/** The prompt from exactly one of: the argument ('-' for stdin), --prompt, --prompt-file. */
function promptOf(argument: string | undefined, flags: CreateRunFlags): string {
  const given = [argument, flags.prompt, flags.promptFile].filter((v) => v !== undefined);
  if (given.length === 0) throw new UsageError("give the task as an argument, with --prompt-file (or '-' for stdin), or run a job with --job <id>");
  if (given.length > 1) throw new UsageError('give the task once: as the argument, --prompt or --prompt-file');
  const text = flags.promptFile !== undefined ? readText(flags.promptFile, '--prompt-file') : argument === '-' ? readText('-', 'prompt') : given[0]!;
  if (text.trim() === '') throw new UsageError('the prompt is empty');
  return text.replace(/\n$/, '');
}

export async function createRun(ctx: CliContext, options: CreateRunOptions): Promise<void> {
  const api = ctx.api();
  if (options.files.length > 0) options.body.files = await inputFileIds(ctx, options.files);
  if (options.check) {
    printCheck(ctx, await api.runs.check(paramsOf(options)));
    return;
  }
  const accepted: RunCreated = await api.runs.create(paramsOf(options));
  if (!options.wait) {
    printAccepted(ctx, accepted);
    return;
  }
  printWarnings(ctx, accepted.warnings);
  if (!ctx.json) ctx.out.note(`started ${accepted.task_id}${accepted.livemode ? '' : ' in test mode (livemode: false)'}; following it until it ends (Ctrl-C stops following, not the run)`);
  await followToEnvelope(ctx, accepted.task_id);
}

/** The run as the SDK takes it: a prompt's body, or a job's with its id. */
function paramsOf(options: CreateRunOptions): CreateParams {
  return options.kind === 'job' ? { job_id: options.jobId, ...options.body } : options.body;
}

const FILE_ID = /^file_[0-9a-z]{26}$/;

/**
 * Each `--file` as a file id: a path that exists is uploaded, unless the organisation has its file of the same name and
 * content already (its id noted on stderr either way); an id is taken as it is.
 */
async function inputFileIds(ctx: CliContext, refs: readonly string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const ref of refs) {
    if (!existsSync(ref)) {
      if (!FILE_ID.test(ref)) throw new UsageError(`--file ${ref}: no such file, and not a file_ id`, 'usage_error', '--file');
      ids.push(ref);
      continue;
    }
    const { file, reused } = await uploadOnce(ctx.api(), ref);
    if (!ctx.json) ctx.out.note(reused ? `${ref}: reusing ${file.id} (${file.name}), uploaded before with the same name and content` : `uploaded ${ref} as ${file.id} (${file.name})`);
    ids.push(file.id);
  }
  return ids;
}
