import { Option, type Command } from 'commander';
import type { Job, JobUpdateParams } from '../../api.js';
import { DEFAULT_MODEL, MODEL_ALIASES, type ModelAlias } from '../../../src/vocabulary/models.js';
import { UsageError } from '../../cli-errors.js';
import type { CliContext } from '../../context.js';
import { readJsonObject } from '../../flag-parsers.js';
import type { Column } from '../../output.js';
import { addRunOptionFlags, runOptionsOf, type RunOptionFlags } from '../runs/run-option-flags.js';

/** Fields `--unset` can clear on a job (PATCH with null). */
export const UNSETTABLE = ['description', 'input_schema', 'output_schema', 'connections', 'timeout_s', 'max_cost_usd', 'human_timeout_s', 'human_email', 'schedule', 'proxy', 'sandbox_label', 'profile', 'save_profile'] as const;

export interface JobFieldFlags extends RunOptionFlags {
  name?: string;
  description?: string;
  prompt?: string;
  model?: ModelAlias;
  inputSchema?: string;
  replay?: 'auto' | 'off';
}

/** The flags shared by `jobs create` and `jobs update`. */
export function addJobFieldOptions(cmd: Command): Command {
  cmd
    .option('--name <name>', 'job name')
    .option('--description <text>', 'what the job does')
    .option('--prompt <text>', 'the task, with {{placeholders}} filled from inputs at run time')
    .addOption(new Option('--model <alias>', `model (default ${DEFAULT_MODEL})`).choices(MODEL_ALIASES))
    .option('--input-schema <json|@file>', 'JSON Schema of the inputs; its required list is checked on every run');
  return addRunOptionFlags(cmd, 'job').addOption(new Option('--replay <mode>', "auto: runs replay the job's recipe without the model (the agent takes over where the page changed); off: the agent runs every step (the default)").choices(['auto', 'off']));
}

export function jobFieldsOf(flags: JobFieldFlags): JobUpdateParams {
  return {
    ...(flags.name === undefined ? {} : { name: flags.name }),
    ...(flags.description === undefined ? {} : { description: flags.description }),
    ...(flags.prompt === undefined ? {} : { prompt: flags.prompt }),
    ...(flags.model === undefined ? {} : { model: flags.model }),
    ...(flags.inputSchema === undefined ? {} : { input_schema: readJsonObject(flags.inputSchema, '--input-schema') }),
    ...runOptionsOf(flags),
    ...(flags.replay === undefined ? {} : { replay: flags.replay }),
  };
}

export function unsetFieldsOf(fields: readonly string[]): JobUpdateParams {
  const out: Record<string, null> = {};
  for (const field of fields) {
    if (!(UNSETTABLE as readonly string[]).includes(field)) throw new UsageError(`--unset takes one of ${UNSETTABLE.join(', ')}, got '${field}'`);
    out[field] = null;
  }
  return out as JobUpdateParams;
}

export const jobColumns: Column<Job>[] = [
  { header: 'ID', value: (j) => j.id },
  { header: 'NAME', value: (j) => j.name, max: 30 },
  { header: 'PROJECT', value: (j) => j.project_id },
  { header: 'MODEL', value: (j) => j.model },
  { header: 'SCHEDULE', value: (j) => (j.schedule ? `${j.schedule.cron}${j.schedule.enabled ? '' : ' (paused)'}` : null) },
  { header: 'PROMPT', value: (j) => j.prompt, max: 50 },
];

export function printJob(ctx: CliContext, job: Job): void {
  ctx.out.result(job, () =>
    ctx.out.fields([
      ['id', job.id],
      ['name', job.name],
      ['project', job.project_id],
      ['description', job.description],
      ['model', job.model],
      ['prompt', job.prompt],
      ['input schema', job.input_schema && JSON.stringify(job.input_schema)],
      ['output schema', job.output_schema && JSON.stringify(job.output_schema)],
      ['connections', job.connections.join(', ')],
      ['proxy', job.proxy],
      ['profile', job.profile === null ? null : `${job.profile} (${job.profile_mode})`],
      ['saves profile', job.save_profile],
      ['timeout s', job.timeout_s],
      ['recording', job.recording ? 'on' : 'off'],
      ['replay', job.replay === 'auto' ? 'auto (errand jobs recipe shows the recipe)' : 'off'],
      ['a person', humanOf(job)],
      ['schedule', job.schedule && `${job.schedule.cron} ${job.schedule.timezone}${job.schedule.enabled ? '' : ' (paused)'}`],
      ['created', job.created_at],
      ['updated', job.updated_at],
    ]),
  );
}

/** Whom the agent's request_human reaches, and what a submission needs. */
function humanOf(job: Job): string | null {
  const parts = [
    job.human_email === null ? null : `emails ${job.human_email}`,
    job.human_timeout_s === null ? null : `waits ${job.human_timeout_s} s`,
    job.require_approval ? 'approval required before a form is submitted' : null,
  ].filter((p) => p !== null);
  return parts.length === 0 ? null : parts.join('; ');
}
