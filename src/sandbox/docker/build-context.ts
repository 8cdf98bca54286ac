import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { SandboxError } from '../sandbox-error.js';

/**
 * Lays out the image's build context in `dir` (the layout `templates/sandbox/Dockerfile` describes): the Dockerfile,
 * the compiled supervisor, the host's playwright-core and the Node binary running this process. Staging keeps the
 * context small and the build independent of the npm registry.
 */
export function stageBuildContext(root: string, dir: string): void {
  const dockerfile = join(root, 'templates', 'sandbox', 'Dockerfile');
  const supervisor = join(root, 'dist', 'templates', 'sandbox', 'supervisor');
  if (!existsSync(join(supervisor, 'main.js'))) {
    throw new SandboxError(`the compiled supervisor is missing at ${supervisor}; run \`npm run build\` first`);
  }
  let playwrightCore: string;
  try {
    playwrightCore = dirname(createRequire(join(root, 'package.json')).resolve('playwright-core/package.json'));
  } catch {
    throw new SandboxError(`playwright-core is not installed under ${root}; run \`npm ci\` first`);
  }

  cpSync(dockerfile, join(dir, 'Dockerfile'));
  mkdirSync(join(dir, 'runtime'), { recursive: true });
  cpSync(process.execPath, join(dir, 'runtime', 'node'));
  mkdirSync(join(dir, 'app', 'node_modules'), { recursive: true });
  writeFileSync(join(dir, 'app', 'package.json'), `${JSON.stringify({ type: 'module', private: true })}\n`);
  cpSync(supervisor, join(dir, 'app', 'supervisor'), { recursive: true, filter: (source) => !source.endsWith('.map') });
  cpSync(playwrightCore, join(dir, 'app', 'node_modules', 'playwright-core'), { recursive: true, dereference: true });
}
