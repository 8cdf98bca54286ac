import { Option, type Command } from 'commander';
import type { JobUpdateParams } from '../../api.js';
import { UsageError } from '../../cli-errors.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { collect } from '../../flag-parsers.js';
import { addJobFieldOptions, jobFieldsOf, printJob, unsetFieldsOf, UNSETTABLE, type JobFieldFlags } from './job-fields.js';

export interface UpdateJobOptions {
  id: string;
  changes: JobUpdateParams;
}

export function registerJobsUpdate(jobs: Command): void {
  addJobFieldOptions(jobs.command('update').description('change a job (PATCH: only the fields given)').argument('<id>', 'job id (job_...)'))
    .option('--clear-description', 'remove the description (same as --unset description)')
    .addOption(new Option('--unset <field>', `clear an optional field (repeatable): ${UNSETTABLE.join(', ')}`).argParser(collect))
    .addHelpText('after', examples('errand jobs update job_01... --model sonnet', 'errand jobs update job_01... --unset output_schema'))
    .action(async (id: string, flags: JobFieldFlags & { clearDescription?: boolean; unset?: string[] }, cmd: Command) => {
      const unset = [...(flags.unset ?? []), ...(flags.clearDescription ? ['description'] : [])];
      const changes = { ...jobFieldsOf(flags), ...unsetFieldsOf(unset) };
      await updateJob(contextOf(cmd), { id, changes });
    });
}

export async function updateJob(ctx: CliContext, options: UpdateJobOptions): Promise<void> {
  if (Object.keys(options.changes).length === 0) throw new UsageError('nothing to change: give at least one field flag or --unset');
  printJob(ctx, await ctx.api().jobs.update(options.id, options.changes));
}
