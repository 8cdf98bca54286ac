import { constants } from 'node:fs';
import { chmod, lstat, mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';

/** The directory of a run's input files, under the workspace (issue 23, item 3). */
export const INPUT_DIR = 'in';

/** A name the daemon may place: one path segment, no NUL or control character, not `.` or `..`, at most 255 bytes. */
export function isPlainName(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !/[/\\\u0000-\u001f\u007f]/u.test(name) && Buffer.byteLength(name) <= 255;
}

export class InputNameError extends Error {}

/**
 * The run's input files in `<workspace>/in/`, written by the supervisor as its own user, never as the task user: in
 * the docker sandbox that is root, and `in/` is a tmpfs of root's (container-spec.ts), so task code can read the
 * files (0444) but neither change, remove nor add any (the directory is 0555 between writes). In the local driver the
 * supervisor and task code are one user: the same modes are the best it can do.
 */
export class InputFiles {
  readonly dir: string;

  constructor(workspace: string) {
    this.dir = join(workspace, INPUT_DIR);
  }

  /** Writes one input file; a name already placed is refused (the daemon places each once). */
  async write(name: string, body: AsyncIterable<Buffer>): Promise<void> {
    if (!isPlainName(name)) throw new InputNameError(`not a plain file name: ${JSON.stringify(name)}`);
    await mkdir(this.dir, { recursive: true });
    await chmod(this.dir, 0o755);
    try {
      // O_EXCL and O_NOFOLLOW: nothing already there (a link the task made, in the local driver) is written through.
      const file = await open(join(this.dir, name), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o444);
      try {
        await pipeline(body, file.createWriteStream());
      } finally {
        await file.close().catch(() => undefined);
      }
    } finally {
      await chmod(this.dir, 0o555);
    }
  }

  /** The paths of `names` for the browser's upload, each a regular file placed here; otherwise says which is not. */
  async paths(names: readonly string[]): Promise<string[]> {
    const paths: string[] = [];
    for (const name of names) {
      if (!isPlainName(name)) throw new InputNameError(`${JSON.stringify(name)} is not the name of an input file`);
      const path = join(this.dir, name);
      const info = await lstat(path).catch(() => null);
      if (info === null || !info.isFile()) throw new InputNameError(`${JSON.stringify(name)} is not one of the run's input files in /workspace/${INPUT_DIR}`);
      paths.push(path);
    }
    return paths;
  }
}
