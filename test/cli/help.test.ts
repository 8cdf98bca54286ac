import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../cli/program.js';
import { runCli } from './run-cli.js';

/** Every command of the tree with its path (`['runs', 'create']`), the root included. */
function commandsOf(cmd: Command, path: string[] = []): { path: string[]; cmd: Command }[] {
  return [{ path, cmd }, ...cmd.commands.flatMap((sub) => commandsOf(sub, [...path, sub.name()]))];
}

function helpOf(cmd: Command): string {
  let text = '';
  cmd.configureOutput({ writeOut: (s) => (text += s), writeErr: (s) => (text += s) });
  cmd.outputHelp();
  return text;
}

const program = buildProgram();
const all = commandsOf(program);
const leaves = all.filter((c) => c.cmd.commands.length === 0);
const globalFlags = program.options.flatMap((o) => [o.long, o.short]).filter((f): f is string => f !== undefined);

describe('errand --help', () => {
  it.each(all.map((c) => [c.path.join(' ') || '(root)', c] as const))('shows examples for %s', (_name, { path, cmd }) => {
    const help = helpOf(cmd);
    const examples = help.slice(help.indexOf('\nExamples:\n')).split('\n').filter((l) => l.startsWith('  $ errand '));
    expect(examples.length, `no example in:\n${help}`).toBeGreaterThan(0);
    const known = new Set(all.map((c) => c.path.join(' ')));
    for (const example of examples) {
      const words = example.slice('  $ errand '.length).split(/\s+/);
      const named = words.slice(0, 2).join(' ');
      expect(known.has(named) || known.has(words[0]!), `${example} names no command`).toBe(true);
      if (cmd.commands.length > 0) continue;
      expect(words.slice(0, path.length), example).toEqual(path);
      const shellEnd = words.findIndex((w) => w === '|' || w === '#' || w.startsWith('>'));
      const flags = words.slice(0, shellEnd < 0 ? undefined : shellEnd).filter((w) => /^--?[a-z]/.test(w)).map((w) => w.split('=')[0]!);
      const own = cmd.options.flatMap((o) => [o.long, o.short]).filter((f): f is string => f !== undefined);
      for (const flag of flags) expect([...own, ...globalFlags, '--help'], `${example}: ${flag} is not an option of errand ${path.join(' ')}`).toContain(flag);
    }
  });

  it('reaches every command of the tree from the binary, with exit 0', async () => {
    expect(leaves.length).toBeGreaterThanOrEqual(40);
    const res = await runCli(['runs', 'create', '--help']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('Examples:');
    expect(res.stdout).toMatch(/--output-schema <json\|@file>\s+JSON Schema the result must satisfy[\s\S]*confidence\s+"low"/);
    const keys = await runCli(['keys', 'create', '--help']);
    expect(keys.stdout).toMatch(/enforced:\s+new\s+runs\s+are\s+refused\s+\(402\)/);
  });

  it("names every pane of errand tui and every key it takes, 'a' among them", () => {
    const help = helpOf(all.find((c) => c.path.join(' ') === 'tui')!.cmd);
    expect(help).toContain('Panes: 1 Runs, 2 Jobs, 3 Webhooks, 4 Connections, 5 Email.');
    expect(help).toContain('a answers a run that waits for a person, 1-5 or tab switch panes');
  });
});
