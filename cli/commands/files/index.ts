import type { Command } from 'commander';
import { examples } from '../../help.js';
import { registerFilesDelete } from './delete.js';
import { registerFilesList } from './list.js';
import { registerFilesUpload } from './upload.js';

export function registerFiles(program: Command): void {
  const files = program
    .command('files')
    .description("files: uploads that runs take as input, in their sandbox's /workspace/in (through the API)")
    .addHelpText('after', examples('errand files upload ./invoice.pdf', "errand runs create 'Upload the invoice on the portal' --file ./invoice.pdf"));
  registerFilesUpload(files);
  registerFilesList(files);
  registerFilesDelete(files);
}
