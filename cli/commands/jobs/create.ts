import type { Command } from 'commander';
import type { JobCreateParams } from '../../api.js';
import { UsageError } from '../../cli-errors.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { addJobFieldOptions, jobFieldsOf, printJob, type JobFieldFlags } from './job-fields.js';

export function registerJobsCreate(jobs: Command): void {
  addJobFieldOptions(jobs.command('create').description('create a job: a reusable task template in a project').requiredOption('--project <id>', 'owning project (proj_...)')).addHelpText('after', examples('errand jobs create --project proj_01... --name price --prompt \'Find the price of {{sku}}\' --input-schema \'{"type":"object","required":["sku"]}\'', 'errand jobs create --project proj_01... --name title --prompt \'Title of {{url}}\' --output-schema @schema.json --json')).action(
    async (flags: JobFieldFlags & { project: string }, cmd: Command) => {
      const fields = jobFieldsOf(flags);
      if (fields.name === undefined || fields.prompt === undefined) throw new UsageError('jobs create needs --name and --prompt');
      await createJob(contextOf(cmd), { ...fields, project_id: flags.project, name: fields.name, prompt: fields.prompt });
    },
  );
}

export async function createJob(ctx: CliContext, body: JobCreateParams): Promise<void> {
  printJob(ctx, await ctx.api().jobs.create(body));
}
