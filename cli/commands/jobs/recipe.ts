import type { Command } from 'commander';
import type { Recipe } from '../../api.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';

export function registerJobsRecipe(jobs: Command): void {
  jobs
    .command('recipe')
    .description("show a job's recipe (what its runs replay without the model), or delete it")
    .argument('<id>', 'job id (job_...)')
    .option('--delete', 'delete every version: the next run is the agent, and its success records version 1')
    .addHelpText('after', examples('errand jobs recipe job_01...', 'errand jobs recipe job_01... --json | jq .steps', 'errand jobs recipe job_01... --delete'))
    .action(async (id: string, flags: { delete?: boolean }, cmd: Command) => {
      await jobRecipe(contextOf(cmd), { id, delete: flags.delete === true });
    });
}

export async function jobRecipe(ctx: CliContext, options: { id: string; delete: boolean }): Promise<void> {
  if (options.delete) {
    const deleted = await ctx.api().jobs.deleteRecipe(options.id);
    ctx.out.result(deleted, () => ctx.out.line(`deleted the recipe of ${deleted.job_id} (${deleted.versions} version${deleted.versions === 1 ? '' : 's'})`));
    return;
  }
  const recipe = await ctx.api().jobs.recipe(options.id);
  ctx.out.result(recipe, () => printRecipe(ctx, recipe));
}

type RecipeStep = Recipe['steps'][number];
type MemberRule = Recipe['extraction'][string];

function printRecipe(ctx: CliContext, recipe: Recipe): void {
  ctx.out.fields([
    ['job', recipe.job_id],
    ['version', recipe.version],
    ['recorded from', recipe.source_run_id],
    ['recorded at', recipe.created_at],
  ]);
  ctx.out.line('');
  ctx.out.line('steps:');
  recipe.steps.forEach((step, i) => ctx.out.line(`  ${i + 1}. ${stepLine(step)}`));
  ctx.out.line('');
  ctx.out.line('result:');
  for (const [member, rule] of Object.entries(recipe.extraction)) ctx.out.line(`  ${member}: ${ruleLine(rule)}`);
}

function stepLine(step: RecipeStep): string {
  if (step.tool === 'code') return `run ${step.language} code (${(step.code ?? '').split('\n').length} lines)`;
  const target = (step.locators ?? []).map((l) => (l.kind === 'text' ? `text ${JSON.stringify(l.text)}` : l.selector)).join(' | ');
  const where = step.page === null || step.page === undefined ? '' : `  [on ${step.page.url}${step.page.key_text.length === 0 ? '' : `, showing ${step.page.key_text.map((t) => JSON.stringify(t)).join(', ')}`}]`;
  switch (step.action) {
    case 'navigate':
      return `navigate ${step.url ?? ''}`;
    case 'type':
      return `type ${JSON.stringify(step.text ?? '')} into ${target}${step.submit === true ? ', then Enter' : ''}${where}`;
    case 'click':
      return `click ${target}${where}`;
    case 'upload':
      return `upload ${(step.files ?? []).map((f) => `the run's files[${f.index}] (${f.content_type})`).join(', ')} into ${target}${where}`;
    case 'press':
      return `press ${step.key ?? ''}${where}`;
    default:
      return `${step.action}${where}`;
  }
}

function ruleLine(rule: MemberRule): string {
  if (rule.from === 'code_output') return `${rule.type}, member ${rule.key} of what code step ${(rule.step ?? 0) + 1} printed`;
  if (rule.before !== null && rule.before !== undefined) return `${rule.type}, the line after ${JSON.stringify(rule.before)}`;
  return `${rule.type}, the line ${JSON.stringify(`${rule.prefix}…${rule.suffix}`)}`;
}
