import { existsSync, realpathSync } from 'node:fs';
import { delimiter, join, relative, resolve, sep } from 'node:path';

/**
 * How the user can run this CLI again, for the commands that hints name: the way they ran it (issue 21, item 15).
 * `npx errand` only when they ran it through npx (outside the repository that fetches an unrelated package);
 * `errand` when that name on the PATH is this script (`npm link`, a global install); otherwise the script's path,
 * relative to the working directory when it is below it (`./bin/errand`).
 */
export function cliName(env: NodeJS.ProcessEnv = process.env, script: string | undefined = process.argv[1], cwd: string = process.cwd()): string {
  if (env.npm_command === 'exec') return 'npx errand';
  if (script === undefined) return 'errand';
  const path = resolve(cwd, script);
  if (onPath(env.PATH, path)) return 'errand';
  const below = relative(cwd, path);
  return shellWord(below !== '' && !below.startsWith('..') && !below.startsWith(sep) ? `.${sep}${below}` : path);
}

/** Whether `errand` on the PATH is the script at `path`. */
function onPath(searchPath: string | undefined, path: string): boolean {
  const real = realOrNull(path);
  if (real === null) return false;
  return (searchPath ?? '').split(delimiter).some((dir) => dir !== '' && realOrNull(join(dir, 'errand')) === real);
}

function realOrNull(path: string): string | null {
  return existsSync(path) ? realpathSync(path) : null;
}

/** A path as one shell word: quoted when it holds anything a shell would split or expand. */
function shellWord(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}
