import type { Command } from 'commander';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';

export function registerFilesDelete(files: Command): void {
  files
    .command('delete')
    .description('delete an uploaded file (refused while a queued or running run takes it as input)')
    .argument('<id>', 'file id (file_...)')
    .addHelpText('after', examples('errand files delete file_01...'))
    .action(async (id: string, _flags: unknown, cmd: Command) => {
      await deleteFile(contextOf(cmd), { id });
    });
}

export async function deleteFile(ctx: CliContext, options: { id: string }): Promise<void> {
  const deleted = await ctx.api().files.delete(options.id);
  ctx.out.result(deleted, () => ctx.out.line(`deleted file ${deleted.id}`));
}
