import { Argument, type Command } from 'commander';
import { commandTree } from '../../completion/command-tree.js';
import { completionScript, SHELLS, type Shell } from '../../completion/completion-scripts.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';

export function registerCompletion(program: Command): void {
  program
    .command('completion')
    .description('print a shell completion script for errand (commands, options and their values)')
    .addArgument(new Argument('<shell>', 'the shell').choices(SHELLS))
    .addHelpText(
      'after',
      examples(
        'errand completion bash > ~/.local/share/bash-completion/completions/errand',
        'errand completion zsh > "${fpath[1]}/_errand"',
        'errand completion fish > ~/.config/fish/completions/errand.fish',
      ),
    )
    .action(async (shell: Shell, _flags: unknown, cmd: Command) => {
      printCompletion(contextOf(cmd), { shell, root: cmd.parent! });
    });
}

export function printCompletion(ctx: CliContext, options: { shell: Shell; root: Command }): void {
  const script = completionScript(options.shell, commandTree(options.root));
  ctx.out.result({ shell: options.shell, script }, () => ctx.out.line(script.trimEnd()));
}
