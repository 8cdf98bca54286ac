import { allCommands, type CommandSpec } from './command-tree.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** The completion script for `shell`, generated from the command tree. */
export function completionScript(shell: Shell, tree: CommandSpec): string {
  switch (shell) {
    case 'bash':
      return bashScript(tree);
    case 'zsh':
      return zshScript(tree);
    case 'fish':
      return fishScript(tree);
    default: {
      const unknown: never = shell;
      throw new Error(`unknown shell ${String(unknown)}`);
    }
  }
}

const key = (c: CommandSpec) => c.path.join(' ');

/** A shell `case` pattern matching exactly this text (spaces escaped). */
const pattern = (text: string) => (text === '' ? '""' : text.replace(/ /g, '\\ '));

/** What follows each option that takes a value: its choices, a file, or anything (nothing to offer). */
const valueOptions = (tree: CommandSpec) => {
  const byFlag = new Map<string, readonly string[] | 'file' | null>();
  for (const c of allCommands(tree)) {
    for (const o of c.options) {
      if (o.takes === 'none') continue;
      for (const f of o.flags) if (!byFlag.has(f) || o.choices) byFlag.set(f, o.choices ?? (o.takes === 'file' ? 'file' : null));
    }
  }
  return byFlag;
};

/** The words offered after a command: its subcommands, or its argument's choices. */
const wordsOf = (c: CommandSpec): string[] => (c.subcommands.length > 0 ? c.subcommands.map((s) => s.path.at(-1)!) : [...(c.argumentChoices ?? [])]);

function bashScript(tree: CommandSpec): string {
  const commands = allCommands(tree);
  const paths = commands.filter((c) => c.path.length > 0).map((c) => pattern(key(c)));
  const cases = commands
    .map((c) => `    ${pattern(key(c))}) subs="${wordsOf(c).join(' ')}"; opts="${c.options.flatMap((o) => o.flags).join(' ')}" ;;`)
    .join('\n');
  const values = [...valueOptions(tree)]
    .map(([flag, value]) => {
      const reply = value === 'file' ? 'COMPREPLY=($(compgen -f -- "$cur"))' : value === null ? 'COMPREPLY=()' : `COMPREPLY=($(compgen -W "${value.join(' ')}" -- "$cur"))`;
      return `    ${flag}) ${reply}; return ;;`;
    })
    .join('\n');
  return `# errand completion for bash. Load it in this shell:  source <(errand completion bash)
# or for every shell:  errand completion bash > ~/.local/share/bash-completion/completions/errand
_errand() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" cmdpath="" w i
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    case "\${cmdpath:+$cmdpath }$w" in
      ${paths.join('|')}) cmdpath="\${cmdpath:+$cmdpath }$w" ;;
    esac
  done
  case "$prev" in
${values}
  esac
  local subs="" opts=""
  case "$cmdpath" in
${cases}
  esac
  if [[ "$cur" == -* || -z "$subs" ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  else
    COMPREPLY=($(compgen -W "$subs" -- "$cur"))
  fi
}
complete -F _errand errand
`;
}

/** An entry for zsh's _describe, `name:description` (a colon in the name escaped), single-quoted. */
const described = (name: string, description: string) => `'${`${name.replace(/:/g, '\\:')}:${description}`.replace(/'/g, `'\\''`)}'`;

function zshScript(tree: CommandSpec): string {
  const commands = allCommands(tree);
  const paths = commands.filter((c) => c.path.length > 0).map((c) => pattern(key(c)));
  const cases = commands
    .map(
      (c) =>
        `    (${pattern(key(c))})\n      subs=(${c.subcommands.length > 0 ? c.subcommands.map((s) => described(s.path.at(-1)!, s.description)).join(' ') : wordsOf(c).map((w) => described(w, w)).join(' ')})\n      opts=(${c.options.flatMap((o) => o.flags.map((f) => described(f, o.description))).join(' ')}) ;;`,
    )
    .join('\n');
  const values = [...valueOptions(tree)]
    .map(([flag, value]) => `    (${flag}) ${value === 'file' ? '_files' : value === null ? ':' : `compadd -- ${value.join(' ')}`}; return ;;`)
    .join('\n');
  return `#compdef errand
# errand completion for zsh. Load it in this shell:  source <(errand completion zsh)
# or for every shell: save it as _errand in a directory of your $fpath.
_errand() {
  local cmdpath="" w
  local -a subs opts
  for w in "\${(@)words[2,CURRENT-1]}"; do
    case "\${cmdpath:+$cmdpath }$w" in
      (${paths.join('|')}) cmdpath="\${cmdpath:+$cmdpath }$w" ;;
    esac
  done
  case "\${words[CURRENT-1]}" in
${values}
  esac
  case "$cmdpath" in
${cases}
  esac
  if [[ "$PREFIX" == -* || \${#subs} -eq 0 ]]; then
    _describe -t options option opts
  else
    _describe -t commands command subs
  fi
}
if [[ "\${zsh_eval_context[-1]}" == loadautofunc ]]; then
  _errand "$@"
else
  compdef _errand errand
fi
`;
}

const fishQuote = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

function fishScript(tree: CommandSpec): string {
  const commands = allCommands(tree);
  const fishKey = (c: CommandSpec) => ['errand', ...c.path].join(' ');
  const paths = commands.filter((c) => c.path.length > 0).map((c) => fishQuote(fishKey(c)));
  const lines: string[] = [];
  for (const c of commands) {
    const here = `test (__errand_path) = ${fishQuote(fishKey(c))}`;
    for (const s of c.subcommands) lines.push(`complete -c errand -n ${fishQuote(here)} -a ${fishQuote(s.path.at(-1)!)} -d ${fishQuote(s.description)}`);
    if (c.subcommands.length === 0 && c.argumentChoices) lines.push(`complete -c errand -n ${fishQuote(here)} -a ${fishQuote(c.argumentChoices.join(' '))}`);
    for (const o of c.options) {
      const long = o.flags.find((f) => f.startsWith('--'))?.slice(2);
      const short = o.flags.find((f) => /^-[^-]$/.test(f))?.slice(1);
      const parts = [`complete -c errand -n ${fishQuote(here)}`];
      if (long) parts.push(`-l ${long}`);
      if (short) parts.push(`-s ${short}`);
      if (o.takes !== 'none') parts.push(o.choices ? `-x -a ${fishQuote(o.choices.join(' '))}` : o.takes === 'file' ? '-r -F' : '-x');
      parts.push(`-d ${fishQuote(o.description)}`);
      lines.push(parts.join(' '));
    }
  }
  return `# errand completion for fish. Load it in this shell:  errand completion fish | source
# or for every shell:  errand completion fish > ~/.config/fish/completions/errand.fish
# The command the line names so far, e.g. "errand runs create".
function __errand_path
  set -l cmdpath errand
  set -l known ${paths.join(' ')}
  set -l words (commandline -opc)
  set -e words[1]
  for w in $words
    if contains -- "$cmdpath $w" $known
      set cmdpath "$cmdpath $w"
    end
  end
  echo $cmdpath
end
complete -c errand -f
${lines.join('\n')}
`;
}
