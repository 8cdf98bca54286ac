import type { Command } from 'commander';
import type { RunHumanAnswer } from '../../api.js';
import { UsageError } from '../../cli-errors.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { printEnvelope } from './envelope-view.js';

export interface RunsAnswerOptions {
  id: string;
  text?: string;
  approve?: boolean;
  deny?: boolean;
  done?: boolean;
  note?: string;
  request?: string;
}

export function registerRunsAnswer(runs: Command): void {
  runs
    .command('answer')
    .description("answer what a waiting run's agent asks a person (its waiting_for): a reply, an approval, or a takeover done")
    .argument('<id>', 'run id (run_...)')
    .option('--text <answer>', 'the reply to a question (kind answer)')
    .option('--approve', 'approve what the agent asks to do (kind approve)')
    .option('--deny', 'refuse it (kind approve)')
    .option('--done', 'say that what the agent asked you to do in the browser is done (kind takeover)')
    .option('--note <text>', 'what you did, or want the agent to know')
    .option('--request <hr_id>', 'answer only if the run still waits for this request')
    .addHelpText(
      'after',
      examples(
        "errand runs answer run_01... --text 'Size M, blue'",
        "errand runs answer run_01... --approve --note 'within budget'",
        'errand runs answer run_01... --deny',
        "errand runs answer run_01... --done --note 'solved the captcha'",
      ),
    )
    .action(async (id: string, flags: Omit<RunsAnswerOptions, 'id'>, cmd: Command) => {
      await answerRun(contextOf(cmd), { id, ...flags });
    });
}

export async function answerRun(ctx: CliContext, options: RunsAnswerOptions): Promise<void> {
  printEnvelope(ctx, await ctx.api().runs.answerHuman(options.id, answerBody(options)));
}

/** Exactly one of --text, --approve, --deny and --done says what the answer is. */
export function answerBody(options: RunsAnswerOptions): RunHumanAnswer {
  const given = (['text', 'approve', 'deny', 'done'] as const).filter((flag) => options[flag] !== undefined && options[flag] !== false);
  if (given.length !== 1) {
    const what = given.length === 0 ? 'none was given' : `got ${given.map((f) => `--${f}`).join(' and ')}`;
    throw new UsageError(`give one of --text <answer> (a question), --approve or --deny (an approval), --done (a takeover); ${what}`, 'missing_answer');
  }
  const extra = { ...(options.note === undefined ? {} : { note: options.note }), ...(options.request === undefined ? {} : { request_id: options.request }) };
  switch (given[0]!) {
    case 'text':
      return { answer: options.text!, ...extra };
    case 'approve':
      return { approved: true, ...extra };
    case 'deny':
      return { approved: false, ...extra };
    case 'done':
      return extra;
  }
}
