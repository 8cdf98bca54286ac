import { writeFileSync } from 'node:fs';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { MODEL_ALIASES, type ModelAlias } from '../../../src/vocabulary/models.js';
import { APIError, type Eval, type EvalCaseParams, type EvalCaseResult, type EvalCreateParams } from '../../api.js';
import { SilentExit, UsageError } from '../../cli-errors.js';
import { contextOf, type CliContext } from '../../context.js';
import { integerFlag, readText } from '../../flag-parsers.js';
import { examples } from '../../help.js';
import { addRunOptionFlags, runOptionsOf, type RunOptionFlags } from '../runs/run-option-flags.js';

export interface EvalFlags extends RunOptionFlags {
  cases?: string;
  model?: ModelAlias;
  prompt?: string;
  promptFile?: string;
  replay?: 'auto' | 'off';
  baseline?: string;
  minPass: number;
  maxParallel?: number;
  idempotencyKey?: string;
  report?: string;
  wait: boolean;
}

export interface EvalOptions {
  jobId: string;
  body: EvalCreateParams;
  /** The file the cases came from, and the line of each (for a refusal naming `cases.N`). */
  source: { file: string; lines: number[] } | null;
  minPass: number;
  reportPath: string | null;
  wait: boolean;
}

export function registerJobsEval(jobs: Command): void {
  const cmd = jobs
    .command('eval')
    .description("evaluate a job: run its cases (each a normal run) and grade each result; exits 1 below --min-pass, for CI")
    .argument('<job>', 'job id (job_...)')
    .option('--cases <file.jsonl>', "the cases, one JSON object a line: {name?, inputs, expect} ('-': stdin); default: the cases the job keeps")
    .addOption(new Option('--model <alias>', "a model the runs use instead of the job's").choices(MODEL_ALIASES))
    .addOption(new Option('--prompt <text>', "a prompt the runs use instead of the job's").conflicts('promptFile'))
    .option('--prompt-file <path>', "read that prompt from a file ('-': stdin)")
    .addOption(new Option('--replay <mode>', "auto replays the job's recipe, off runs the agent (default: the job's; off with --prompt)").choices(['auto', 'off']))
    .option('--baseline <eval>', 'an earlier eval of the job (eval_...) to compare with: what got better or worse')
    .addOption(new Option('--min-pass <fraction>', 'the pass rate below which the command exits 1, from 0 to 1').argParser(fractionFlag).default(1, '1, every case'))
    .addOption(new Option('--max-parallel <n>', 'most of its runs queued or running at once (at most evals.max_parallel)').argParser(integerFlag(1, 1000)));
  addRunOptionFlags(cmd, 'run')
    .option('--idempotency-key <key>', 'a repeat within 24 h answers the first eval instead of starting another')
    .option('--report <file.html>', 'save the report (an HTML page, no script) there once the eval has ended')
    .option('--no-wait', 'print the eval as it was accepted and exit; follow it with GET /v1/evals/{id}')
    .addHelpText('after', '\nExit status: 0 when the eval completed with a pass rate of at least --min-pass; 1 below it, or when it was cancelled.')
    .addHelpText(
      'after',
      examples(
        'errand jobs eval job_01... --cases evals/price.jsonl --min-pass 0.9',
        'errand jobs eval job_01... --cases evals/price.jsonl --model opus --baseline eval_01... --report eval.html',
        'errand jobs eval job_01... --json | jq .totals',
      ),
    )
    .action(async (jobId: string, flags: EvalFlags, c: Command) => {
      await evalJob(contextOf(c), evalOptionsOf(jobId, flags));
    });
}

export function evalOptionsOf(jobId: string, flags: EvalFlags): EvalOptions {
  const read = flags.cases === undefined ? null : readCases(flags.cases);
  const prompt = flags.promptFile !== undefined ? readText(flags.promptFile, '--prompt-file').replace(/\n$/, '') : flags.prompt;
  const settings = runOptionsOf(flags);
  const body: EvalCreateParams = {
    ...(read === null ? {} : { cases: read.cases }),
    ...(flags.model === undefined ? {} : { model: flags.model }),
    ...(prompt === undefined ? {} : { prompt }),
    ...(flags.replay === undefined ? {} : { replay: flags.replay }),
    ...(flags.baseline === undefined ? {} : { baseline_id: flags.baseline }),
    ...(flags.maxParallel === undefined ? {} : { max_parallel: flags.maxParallel }),
    ...(flags.idempotencyKey === undefined ? {} : { idempotency_key: flags.idempotencyKey }),
    ...(Object.keys(settings).length === 0 ? {} : { settings }),
  };
  if (!flags.wait && flags.report !== undefined) throw new UsageError('--report needs the eval to end: leave out --no-wait', 'usage_error', '--report');
  return { jobId, body, source: read === null ? null : { file: flags.cases!, lines: read.lines }, minPass: flags.minPass, reportPath: flags.report ?? null, wait: flags.wait };
}

export async function evalJob(ctx: CliContext, o: EvalOptions): Promise<void> {
  const api = ctx.api();
  let created: Eval;
  try {
    created = await api.evals.create(o.jobId, o.body);
  } catch (err) {
    // A refused case is named by its place in the file, which is what a person can find.
    const at = err instanceof APIError && o.source !== null ? /^cases\.(\d+)/.exec(err.param ?? '') : null;
    if (at) ctx.out.note(`cases.${at[1]} is line ${o.source!.lines[Number(at[1])]} of ${o.source!.file}`);
    throw err;
  }
  if (!o.wait) {
    ctx.out.result(created, () => ctx.out.fields([['eval', created.id], ['status', created.status], ['cases', created.totals.cases], ['report', created.report_url]]));
    return;
  }
  if (!ctx.json) ctx.out.note(`started ${created.id}: ${created.totals.cases} case${created.totals.cases === 1 ? '' : 's'}${created.livemode ? '' : ' in test mode (livemode: false)'}; waiting for it to end`);
  const shown = new Set<number>();
  const ended = await api.evals.wait(created.id, {
    onProgress: (e) => {
      for (const c of e.cases) {
        if (shown.has(c.position) || !ENDED.has(c.status)) continue;
        shown.add(c.position);
        if (!ctx.json) ctx.out.note(`${e.id}: ${shown.size}/${e.totals.cases} ${c.status} ${c.label}`);
      }
    },
  });
  if (o.reportPath !== null) writeFileSync(o.reportPath, await api.evals.report(ended.report_url));
  ctx.out.result(ended, () => printEval(ctx, ended, o.minPass));
  const below = ended.totals.pass_rate < o.minPass;
  if (ended.status !== 'completed' || below) {
    if (!ctx.json) ctx.out.note(ended.status !== 'completed' ? `${ended.id} was ${ended.status}` : `the pass rate ${percent(ended.totals.pass_rate)} is below --min-pass ${percent(o.minPass)}`);
    throw new SilentExit(1);
  }
}

const ENDED: ReadonlySet<EvalCaseResult['status']> = new Set<EvalCaseResult['status']>(['passed', 'failed', 'error', 'skipped']);
const MARK: Record<EvalCaseResult['status'], string> = { passed: 'PASS', failed: 'FAIL', error: 'ERROR', skipped: 'SKIP', pending: 'WAIT', running: 'RUN' };

function printEval(ctx: CliContext, e: Eval, minPass: number): void {
  for (const c of e.cases) {
    ctx.out.line(`${MARK[c.status].padEnd(5)} ${c.label}`);
    for (const d of c.differences) ctx.out.line(`      ${d.path}: expected ${d.expected}, got ${d.got}`);
    if (c.error !== null) ctx.out.line(`      ${c.error}`);
  }
  ctx.out.line('');
  const t = e.totals;
  ctx.out.fields([
    ['eval', e.id],
    ['status', e.status],
    ['passed', `${t.passed} of ${t.cases} (${percent(t.pass_rate)}; --min-pass ${percent(minPass)})`],
    ['failed', t.failed],
    ['errors', t.errors],
    ['cost', `${t.cost_usd} USD`],
    ['tokens', `${t.input_tokens} in / ${t.output_tokens} out`],
    ['run time', `${(t.duration_ms / 1000).toFixed(1)} s, added up`],
    ['report', e.report_url],
  ]);
  const c = e.comparison;
  if (c === null) return;
  ctx.out.line('');
  ctx.out.line(`beside ${c.baseline_id}: pass rate ${c.pass_rate_change >= 0 ? '+' : ''}${Math.round(c.pass_rate_change * 100)} pts, cost ${c.cost_usd_change >= 0 ? '+' : ''}${c.cost_usd_change} USD`);
  ctx.out.line(`  newly passing: ${c.newly_passing.length === 0 ? 'none' : c.newly_passing.join(', ')}`);
  ctx.out.line(`  newly failing: ${c.newly_failing.length === 0 ? 'none' : c.newly_failing.join(', ')}`);
  ctx.out.line(`  unchanged:     ${c.unchanged}`);
  if (c.removed.length > 0) ctx.out.line(`  not run now:   ${c.removed.join(', ')}`);
}

/** A JSONL file of cases: one object a line, blank lines skipped; the line each case was on. */
function readCases(path: string): { cases: EvalCaseParams[]; lines: number[] } {
  const cases: EvalCaseParams[] = [];
  const lines: number[] = [];
  readText(path, '--cases')
    .split('\n')
    .forEach((text, i) => {
      if (text.trim() === '') return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (err) {
        throw new UsageError(`--cases ${path}: line ${i + 1} is not JSON (${(err as Error).message})`, 'usage_error', '--cases');
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError(`--cases ${path}: line ${i + 1} is not a JSON object`, 'usage_error', '--cases');
      cases.push(parsed as EvalCaseParams);
      lines.push(i + 1);
    });
  if (cases.length === 0) throw new UsageError(`--cases ${path} holds no case`, 'usage_error', '--cases');
  return { cases, lines };
}

function fractionFlag(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) throw new InvalidArgumentError('expected a fraction from 0 to 1 (0.9 is 90%)');
  return n;
}

function percent(fraction: number): string {
  return `${Math.round(fraction * 1000) / 10}%`;
}
