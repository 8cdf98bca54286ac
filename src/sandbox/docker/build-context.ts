import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SandboxError } from '../sandbox-error.js';

/** The npm packages the supervisor imports; the image gets them, and what they depend on, from the host. */
export const SUPERVISOR_PACKAGES: readonly string[] = ['playwright-core', 'otpauth', 'proxy-chain'];

/**
 * Lays out the image's build context in `dir` (the layout `templates/sandbox/Dockerfile` describes): the Dockerfile,
 * the compiled supervisor, the host's copies of `SUPERVISOR_PACKAGES` and the Node binary running this process.
 * Staging keeps the context small and the build independent of the npm registry.
 */
export function stageBuildContext(root: string, dir: string): void {
  const dockerfile = join(root, 'templates', 'sandbox', 'Dockerfile');
  const supervisor = join(root, 'dist', 'templates', 'sandbox', 'supervisor');
  if (!existsSync(join(supervisor, 'main.js'))) {
    throw new SandboxError(`the compiled supervisor is missing at ${supervisor}; run \`npm run build\` first`);
  }
  const packages = packageClosure(root, SUPERVISOR_PACKAGES);

  cpSync(dockerfile, join(dir, 'Dockerfile'));
  mkdirSync(join(dir, 'runtime'), { recursive: true });
  cpSync(process.execPath, join(dir, 'runtime', 'node'));
  mkdirSync(join(dir, 'app', 'node_modules'), { recursive: true });
  writeFileSync(join(dir, 'app', 'package.json'), `${JSON.stringify({ type: 'module', private: true })}\n`);
  cpSync(supervisor, join(dir, 'app', 'supervisor'), { recursive: true, filter: (source) => !source.endsWith('.map') });
  for (const name of packages) cpSync(join(root, 'node_modules', name), join(dir, 'app', 'node_modules', name), { recursive: true, dereference: true });
}

/**
 * The hoisted packages under `root/node_modules` that `names` need at run time, themselves included. A dependency
 * installed inside its dependent's own node_modules (another version) travels with that dependent's directory.
 */
export function packageClosure(root: string, names: readonly string[]): string[] {
  const found = new Set<string>();
  const visit = (name: string, from: string) => {
    if (existsSync(join(from, 'node_modules', name)) && from !== root) return;
    if (found.has(name)) return;
    const manifest = join(root, 'node_modules', name, 'package.json');
    if (!existsSync(manifest)) throw new SandboxError(`${name} is not installed under ${root}; run \`npm ci\` first`);
    found.add(name);
    const { dependencies = {} } = JSON.parse(readFileSync(manifest, 'utf8')) as { dependencies?: Record<string, string> };
    for (const dependency of Object.keys(dependencies)) visit(dependency, join(root, 'node_modules', name));
  };
  for (const name of names) visit(name, root);
  return [...found];
}
