import type { Command } from 'commander';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { printFile } from './columns.js';
import { uploadPath } from './upload-path.js';

export interface UploadFileOptions {
  path: string;
  name?: string;
  contentType?: string;
}

export function registerFilesUpload(files: Command): void {
  files
    .command('upload')
    .description('upload a file for runs to use (errand runs create --file file_...): it is placed read-only in /workspace/in')
    .argument('<path>', 'the file to upload')
    .option('--name <name>', 'the name runs see it under (default: the file\'s own; sanitised by the daemon)')
    .option('--content-type <type>', 'its media type (default: guessed from the name)')
    .addHelpText('after', examples('errand files upload ./invoice.pdf', 'errand files upload ./data.csv --name prices.csv --json'))
    .action(async (path: string, flags: { name?: string; contentType?: string }, cmd: Command) => {
      await uploadFile(contextOf(cmd), { path, ...flags });
    });
}

export async function uploadFile(ctx: CliContext, options: UploadFileOptions): Promise<void> {
  printFile(ctx, await uploadPath(ctx.api(), options.path, options));
}
