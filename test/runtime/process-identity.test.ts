import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-root.js';
import { currentProcessIdentity, livenessOf, type ProcessIdentity } from '../../src/runtime/process-identity.js';
import { tempDir } from '../fixtures/temp-dir.js';

const COMPILED = pathToFileURL(join(packageRoot(), 'dist', 'src', 'runtime', 'process-identity.js')).href;

const linux = process.platform === 'linux';

describe.skipIf(!linux)('process identity', () => {
  const dir = tempDir('errand-identity-');
  let child: ReturnType<typeof spawn>;
  let childIdentity: ProcessIdentity;

  beforeAll(async () => {
    // A command name with spaces and parentheses, which /proc/<pid>/stat prints unescaped inside its own parentheses.
    const oddName = join(dir.path, 'a) b (c');
    symlinkSync(process.execPath, oddName);
    child = spawn(
      oddName,
      ['-e', `import(${JSON.stringify(COMPILED)}).then((m) => { console.log(JSON.stringify(m.currentProcessIdentity())); setInterval(() => {}, 1000); })`],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
    childIdentity = JSON.parse(line) as ProcessIdentity;
  });

  afterAll(() => {
    child?.kill('SIGKILL');
    dir.remove();
  });

  it('names this process by boot, pid namespace, pid and start time', () => {
    const self = currentProcessIdentity();
    expect(self).toMatchObject({
      bootId: readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(),
      pid: process.pid,
      pidNamespace: expect.stringMatching(/^pid:\[\d+\]$/),
      startTime: expect.stringMatching(/^\d+$/),
    });
    expect(livenessOf(self!)).toBe('alive');
  });

  it('reads the start time past a command name with spaces and parentheses', () => {
    const self = currentProcessIdentity()!;
    expect(childIdentity.pid).toBe(child.pid);
    // Started after this process: a field read from the wrong place (a thread count, say) would be far smaller.
    expect(Number(childIdentity.startTime)).toBeGreaterThanOrEqual(Number(self.startTime));
    expect(livenessOf(childIdentity)).toBe('alive');
  });

  it('proves dead a pid now held by a process that started at another time', () => {
    expect(livenessOf({ ...childIdentity, startTime: String(Number(childIdentity.startTime) + 1) })).toBe('dead');
  });

  it('proves dead a process whose pid is free, once it has exited', async () => {
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
    expect(livenessOf(childIdentity)).toBe('dead');
  });

  it('proves nothing about a pid of another boot or another pid namespace', () => {
    const self = currentProcessIdentity()!;
    const gone = { ...self, startTime: String(Number(self.startTime) + 1) };
    expect(livenessOf({ ...gone, bootId: '00000000-0000-4000-8000-000000000000' })).toBe('unknown');
    expect(livenessOf({ ...gone, pidNamespace: 'pid:[1]' })).toBe('unknown');
    expect(livenessOf({ ...gone, pid: 999_999_999, pidNamespace: 'pid:[1]' })).toBe('unknown');
  });
});
