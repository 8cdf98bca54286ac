import type { Command } from 'commander';

export interface OptionSpec {
  /** `--model` and, when it has one, `-m`. */
  flags: string[];
  description: string;
  /** The values it accepts, when commander knows them (`--model <alias>`). */
  choices: readonly string[] | null;
  /** `value`: takes one (anything); `file`: takes a path (`<dir>`, `<path>`, `@file`); `none`: a switch. */
  takes: 'none' | 'value' | 'file';
}

/** One command of the tree as completion scripts see it. */
export interface CommandSpec {
  /** `['runs', 'create']`; the root's is empty. */
  path: string[];
  description: string;
  subcommands: CommandSpec[];
  /** The values its first argument accepts, when commander knows them (`completion <shell>`). */
  argumentChoices: readonly string[] | null;
  /** Its own options and, for every command, the root's (--home, --json) and --help. */
  options: OptionSpec[];
}

/** The command tree, read from commander: the one source of what there is to complete. */
export function commandTree(root: Command): CommandSpec {
  const globals = [...root.options.map(optionSpec), { flags: ['--help', '-h'], description: 'show help', choices: null, takes: 'none' as const }];
  const walk = (cmd: Command, path: string[]): CommandSpec => ({
    path,
    description: cmd.description(),
    subcommands: cmd.commands.map((sub) => walk(sub, [...path, sub.name()])),
    argumentChoices: cmd.registeredArguments[0]?.argChoices ?? null,
    options: path.length === 0 ? globals : [...cmd.options.map(optionSpec), ...globals],
  });
  return walk(root, []);
}

/** Every command of the tree, the root first. */
export function allCommands(tree: CommandSpec): CommandSpec[] {
  return [tree, ...tree.subcommands.flatMap(allCommands)];
}

function optionSpec(o: Command['options'][number]): OptionSpec {
  return {
    flags: [o.long, o.short].filter((f): f is string => f !== undefined),
    description: o.description,
    choices: o.argChoices ?? null,
    takes: !(o.required || o.optional) ? 'none' : /<(dir|path|file)>|@file/.test(o.flags) ? 'file' : 'value',
  };
}
