import { relative, resolve } from 'node:path';
import { packageRoot } from '../src/package-root.js';

/**
 * How the user can run this CLI again, for the commands that hints name: `errand` when it ran through a link on
 * the PATH (`npm link`, a global install), otherwise `npx errand`, which works in the repository without one.
 */
export function cliName(env: NodeJS.ProcessEnv = process.env, script: string | undefined = process.argv[1]): string {
  if (script === undefined || env.npm_command === 'exec') return 'npx errand';
  const inside = !relative(packageRoot(import.meta.url), resolve(script)).startsWith('..');
  return inside ? 'npx errand' : 'errand';
}
