import type { Command } from 'commander';
import type { Step } from '../../api.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';

export function registerRunsSteps(runs: Command): void {
  runs
    .command('steps')
    .description('show what the agent did in a run: model calls and tool calls, in order')
    .argument('<id>', 'run id (run_...)')
    .option('--full', 'print each step with its whole input and output')
    .addHelpText('after', examples('errand runs steps run_01...', 'errand runs steps run_01... --full'))
    .action(async (id: string, flags: { full?: boolean }, cmd: Command) => {
      await runSteps(contextOf(cmd), { id, full: flags.full === true });
    });
}

export async function runSteps(ctx: CliContext, options: { id: string; full: boolean }): Promise<void> {
  const page = await ctx.api().runs.steps(options.id);
  ctx.out.result(page, () => {
    if (options.full) {
      for (const step of page.data) printStep(ctx, step);
      if (page.data.length === 0) ctx.out.note('no steps recorded');
      return;
    }
    ctx.out.table(
      page.data,
      [
        { header: '#', value: (s) => s.seq },
        { header: 'KIND', value: (s) => s.kind },
        { header: 'NAME', value: (s) => s.name, max: 24 },
        { header: 'MS', value: (s) => s.duration_ms },
        { header: 'TOKENS', value: (s) => (s.kind === 'model' ? `${s.usage.input_tokens}/${s.usage.output_tokens}` : null) },
        { header: 'COST USD', value: (s) => (s.usage.cost_usd > 0 ? s.usage.cost_usd : null) },
        { header: 'ERR', value: (s) => (s.is_error ? 'yes' : '') },
        { header: 'INPUT', value: (s) => brief(s.input), max: 40 },
        { header: 'OUTPUT', value: (s) => brief(s.output), max: 50 },
      ],
      'no steps recorded',
    );
  });
}

function printStep(ctx: CliContext, step: Step): void {
  const u = step.usage;
  ctx.out.line(`#${step.seq} ${step.kind} ${step.name}${step.is_error ? ' (error)' : ''}  ${step.duration_ms} ms  ${step.created_at}${step.attempt > 1 ? `  attempt ${step.attempt}` : ''}`);
  if (step.kind === 'model') ctx.out.line(`  tokens: ${u.input_tokens} in / ${u.output_tokens} out, $${u.cost_usd}`);
  ctx.out.line(`  input:  ${brief(step.input)}`);
  ctx.out.line(`  output: ${brief(step.output)}`);
  if (step.screenshot_url) ctx.out.line(`  screenshot: ${step.screenshot_url}`);
}

function brief(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}
