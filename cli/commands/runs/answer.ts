import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { ConflictError } from '../../../src/errors.js';
import type { RunHumanAnswer } from '../../api.js';
import { UsageError, UserError } from '../../cli-errors.js';
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
    .description(
      "answer what a waiting run's agent asks a person (its waiting_for): a reply, an approval, or a takeover done. The answer goes to one " +
        'question only: --request names it, or, at a terminal, the question the run asks now is shown and you confirm it',
    )
    .argument('<id>', 'run id (run_...)')
    .option('--text <answer>', 'the reply to a question (kind answer)')
    .option('--approve', 'approve what the agent asks to do (kind approve)')
    .option('--deny', 'refuse it (kind approve)')
    .option('--done', 'say that what the agent asked you to do in the browser is done (kind takeover)')
    .option('--note <text>', 'what you did, or want the agent to know')
    .option('--request <hr_id>', "the question you answer (its waiting_for.request_id, which 'runs get' shows); refused if the run now asks another")
    .addHelpText(
      'after',
      examples(
        "errand runs answer run_01... --request hr_01... --text 'Size M, blue'",
        "errand runs answer run_01... --request hr_01... --approve --note 'within budget'",
        'errand runs answer run_01... --deny            (at a terminal: shows the question and asks before sending)',
        "errand runs answer run_01... --request hr_01... --done --note 'solved the captcha'",
      ),
    )
    .action(async (id: string, flags: Omit<RunsAnswerOptions, 'id'>, cmd: Command) => {
      await answerRun(contextOf(cmd), { id, ...flags });
    });
}

/**
 * Sends the answer to the question named by --request, or to the one the run asks now once the person has seen it and
 * said yes: never to a question nobody here saw, so that running the command again later cannot answer the next one.
 */
export async function answerRun(ctx: CliContext, options: RunsAnswerOptions): Promise<void> {
  const body = answerBody(options);
  const requestId = options.request ?? (await confirmQuestion(ctx, options.id, body));
  printEnvelope(ctx, await ctx.api().runs.answerHuman(options.id, { request_id: requestId, ...body }));
}

/** Exactly one of --text, --approve, --deny and --done says what the answer is. */
export function answerBody(options: RunsAnswerOptions): Omit<RunHumanAnswer, 'request_id'> {
  const given = (['text', 'approve', 'deny', 'done'] as const).filter((flag) => options[flag] !== undefined && options[flag] !== false);
  if (given.length !== 1) {
    const what = given.length === 0 ? 'none was given' : `got ${given.map((f) => `--${f}`).join(' and ')}`;
    throw new UsageError(`give one of --text <answer> (a question), --approve or --deny (an approval), --done (a takeover); ${what}`, 'missing_answer');
  }
  const note = options.note === undefined ? {} : { note: options.note };
  switch (given[0]!) {
    case 'text':
      return { answer: options.text!, ...note };
    case 'approve':
      return { approved: true, ...note };
    case 'deny':
      return { approved: false, ...note };
    case 'done':
      return note;
  }
}

/** Shows what the run asks now and, at a terminal, asks whether this answer is for it; answers its request id. */
async function confirmQuestion(ctx: CliContext, runId: string, body: Omit<RunHumanAnswer, 'request_id'>): Promise<string> {
  const run = await ctx.api().runs.get(runId);
  const w = run.waiting_for;
  if (w === null || w === undefined || w.request_id === null) {
    const state = run.status === 'running' ? `is running and waits for ${w?.on === 'takeover' ? 'a person to hand its browser back' : w?.on === 'email' ? 'an email' : 'nobody'}` : run.status === 'queued' ? 'is queued' : `ended as ${run.status}`;
    throw new ConflictError('not_waiting', `Run ${runId} waits for no person's answer: it ${state}`);
  }
  const asked = `${runId} asks a person (${w.kind}, ${w.request_id}):\n  ${w.question}`;
  if (process.stdin.isTTY !== true) {
    throw new UsageError(
      `say which question you answer with --request: ${asked}\nAnswer it with --request ${w.request_id}; an answer goes only to the question it names.`,
      'missing_request',
      'request',
    );
  }
  ctx.out.note(asked);
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  try {
    const yes = await rl.question(`Send ${describe(body)} to this question? [y/N] `);
    if (!/^y(es)?$/i.test(yes.trim())) throw new UserError('nothing sent', 'not_confirmed');
  } finally {
    rl.close();
  }
  return w.request_id;
}

function describe(body: Omit<RunHumanAnswer, 'request_id'>): string {
  if (body.answer !== undefined) return `the answer ${JSON.stringify(body.answer)}`;
  if (body.approved !== undefined) return body.approved ? 'an approval' : 'a denial';
  return '"done"';
}
