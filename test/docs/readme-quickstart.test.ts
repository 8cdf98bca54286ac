/**
 * The README's first run without a model key, run as written against a daemon started as the Quickstart starts it
 * (no model key, a fresh data directory): each command of the block, `errand` being the compiled CLI, the test-mode
 * key it prints standing in for `ek_test_...`. So the block cannot drift from what the CLI does.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon, type TestDaemon } from '../fixtures/test-daemon.js';
import { runCli } from '../cli/run-cli.js';

const README = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');

/** The commands of the first code block under `heading`, without their comments. */
function commandsUnder(heading: string): string[] {
  const section = README.slice(README.indexOf(`\n${heading}\n`));
  const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
  return block
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '');
}

/** A command's words, as a shell would split these simple ones (single quotes only). */
function words(command: string): string[] {
  return [...command.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}

let daemon: TestDaemon;
beforeAll(async () => {
  daemon = await startDaemon({ env: { ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '', ERRAND_SANDBOX_DRIVER: 'local' }, dev: false });
});
afterAll(async () => {
  await daemon?.cleanup();
});

describe('README.md, "A first run, without a model key"', () => {
  it('works as written on a daemon with no model key: doctor names the missing key, the test key runs a task to success', async () => {
    const commands = commandsUnder('### A first run, without a model key');
    expect(commands.map((c) => words(c).slice(0, 3).join(' '))).toEqual(['errand doctor', 'errand keys create', 'export ERRAND_API_KEY=ek_test_...', 'errand runs create']);
    // The CLI finds the daemon and the first start's key through the data directory, as on the user's machine.
    const env: Record<string, string> = { ERRAND_HOME: daemon.home };
    const outputs: { code: number | null; stdout: string; stderr: string }[] = [];
    for (const command of commands) {
      const [first, ...rest] = words(command);
      if (first === 'export') {
        const [name, value] = rest[0]!.split('=');
        expect(value).toBe('ek_test_...');
        env[name!] = outputs.at(-1)!.stdout.trim();
        continue;
      }
      expect(first).toBe('errand');
      outputs.push(await runCli(rest, { env }));
    }
    const [doctor, key, run] = outputs;
    expect(doctor!.code).toBe(1);
    expect(doctor!.stdout).toMatch(/^fail\s+model provider\s+the daemon has no usable anthropic provider: .*keys create --test/m);
    expect(key!.stdout.trim()).toMatch(/^ek_test_\w+_[\w-]+$/);
    expect(run!.code, run!.stderr).toBe(0);
    expect(run!.stdout).toMatch(/^status:\s+succeeded$/m);
    expect(run!.stdout).toMatch(/^mode:\s+test mode \(livemode: false; /m);
    expect(run!.stdout).toMatch(/^usage:\s+0 in \/ 0 out tokens, \$0\.0000/m);
    expect(README).toContain('The run ends `succeeded` at once, with `mode: test mode (livemode: false; ...)`, a generated `result` and `$0.0000`.');
  });
});
