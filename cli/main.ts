import './no-color.js';
import { buildProgram } from './program.js';
import { Output } from './output.js';

/** Runs the CLI on `argv` (without node and the script) and answers the exit status. */
export async function main(argv: string[]): Promise<number> {
  const json = argv.includes('--json');
  const program = buildProgram({ json });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (err) {
    return new Output(json).error(err);
  }
}

// `errand runs list | head` closes the pipe early; that is the reader's choice, not an error to report.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`errand: ${(err as Error).stack ?? String(err)}\n`);
    process.exitCode = 1;
  },
);
