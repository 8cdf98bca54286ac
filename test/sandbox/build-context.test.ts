import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { packageClosure, stageBuildContext } from '../../src/sandbox/docker/build-context.js';
import { SandboxError } from '../../src/sandbox/sandbox-error.js';
import { tempDir } from '../fixtures/temp-dir.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function installed(root: string, path: string, dependencies: Record<string, string> = {}): void {
  mkdirSync(join(root, path), { recursive: true });
  writeFileSync(join(root, path, 'package.json'), JSON.stringify({ name: path.split('node_modules/').pop(), dependencies }));
}

describe('the sandbox image build context', () => {
  it('takes the packages the supervisor imports and, transitively, what they depend on', () => {
    const dir = tempDir('errand-closure-');
    try {
      installed(dir.path, 'node_modules/a', { b: '1', c: '2' });
      installed(dir.path, 'node_modules/b', { d: '1' });
      installed(dir.path, 'node_modules/d', { b: '1' });
      installed(dir.path, 'node_modules/c');
      // a's own c (another version) goes with a's directory; the hoisted c is not needed.
      installed(dir.path, 'node_modules/a/node_modules/c');
      installed(dir.path, 'node_modules/unused');
      expect(packageClosure(dir.path, ['a']).sort()).toEqual(['a', 'b', 'd']);
    } finally {
      dir.remove();
    }
  });

  it('says to run npm ci when a package is missing', () => {
    const dir = tempDir('errand-closure-');
    try {
      installed(dir.path, 'node_modules/a', { gone: '1' });
      expect(() => packageClosure(dir.path, ['a'])).toThrow(SandboxError);
      expect(() => packageClosure(dir.path, ['a'])).toThrow(/gone is not installed .*npm ci/);
    } finally {
      dir.remove();
    }
  });

  it.runIf(existsSync(join(ROOT, 'dist/templates/sandbox/supervisor/main.js')))('stages the supervisor, its packages and this Node binary', () => {
    const dir = tempDir('errand-context-');
    try {
      stageBuildContext(ROOT, dir.path);
      for (const path of ['Dockerfile', 'runtime/node', 'app/package.json', 'app/supervisor/main.js', 'app/node_modules/playwright-core/package.json']) expect(existsSync(join(dir.path, path)), path).toBe(true);
    } finally {
      dir.remove();
    }
  });
});
