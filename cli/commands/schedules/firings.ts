import type { Command } from 'commander';
import type { SkippedFiring } from '../../api.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { addListOptions, fetchList, listOptionsOf, printList, type ListOptions, type ListQuery } from '../../list-options.js';
import type { Column } from '../../output.js';

const columns: Column<SkippedFiring>[] = [
  { header: 'SLOT', value: (f) => f.slot },
  { header: 'CODE', value: (f) => f.code },
  { header: 'PARAM', value: (f) => f.param },
  { header: 'MESSAGE', value: (f) => f.message, max: 80 },
];

export function registerSchedulesFirings(schedules: Command): void {
  addListOptions(
    schedules
      .command('firings')
      .description("list the firings of a job's schedule that started no run (refused by a cap, a limit or the job's input_schema), newest first")
      .argument('<job-id>', 'job id (job_...)')
      .addHelpText('after', examples('errand schedules firings job_01...', 'errand schedules firings job_01... --limit 5 --json')),
  ).action(async (jobId: string, flags: Parameters<typeof listOptionsOf>[0], cmd: Command) => {
    await listSkippedFirings(contextOf(cmd), jobId, listOptionsOf(flags));
  });
}

export async function listSkippedFirings(ctx: CliContext, jobId: string, options: ListOptions): Promise<void> {
  const api = ctx.api();
  // Firings are events of the log: their cursor is the event's number.
  const list = (q: ListQuery) => api.jobs.skippedFirings(jobId, { ...q, cursor: q.cursor === undefined ? undefined : Number(q.cursor) });
  printList(ctx, await fetchList(options, list), columns, 'no skipped firings');
}
