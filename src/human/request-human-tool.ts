import { performance } from 'node:perf_hooks';
import { toolError, type AgentTool } from '../agent-tools/agent-tool.js';
import { textContent } from '../agent-tools/tool-content.js';
import type { HumanRequestRow } from '../store/human-requests-store.js';
import type { HumanAsk, HumanRequests } from './human-requests.js';
import { HUMAN_KINDS, HUMAN_OBSTACLES, type HumanObstacle } from '../vocabulary/waits.js';

const QUESTION_MAX = 2_000;
/** Said before an answer a person gave the run's earlier attempt, which this one asked again. */
const EARLIER_ANSWER = 'A person answered this exact question for an earlier attempt of this run, which ended before it could use the answer (the daemon running it stopped). Here is that answer.';

/** The request_human tool, which every run has: the agent asks for a person and waits for the answer. */
export function requestHumanTool(requests: Pick<HumanRequests, 'ask'>): AgentTool<HumanAsk> {
  return {
    spec: {
      name: 'request_human',
      description:
        'Ask a person for help and wait for the answer (no model calls while waiting). kind "takeover": a captcha, a login or a 2FA prompt ' +
        'you cannot pass; a person does it in the live browser and hands back (say which with obstacle). kind "answer": a question only a ' +
        'person can answer; you get their text. kind "approve": before an irreversible action (a purchase, a submission, a deletion); ' +
        'ask with the exact action and amounts, and go ahead only if approved. If nobody answers in time, the run fails.',
      inputSchema: {
        type: 'object',
        required: ['kind', 'question'],
        properties: {
          kind: { type: 'string', enum: [...HUMAN_KINDS] },
          question: { type: 'string', description: 'What the person should do or answer, self-contained: they see only this and the page.' },
          obstacle: { type: 'string', enum: [...HUMAN_OBSTACLES], description: 'takeover: what blocks you (captcha, login, other).' },
        },
      },
    },
    summary: 'request_human: ask a person to take over the browser (captcha, login), answer a question, or approve an irreversible action.',
    parse: parseRequestHumanInput,
    async execute(input, ctx, call) {
      ctx.recorder.lastAction(`waiting for a person (${input.kind})`);
      const started = performance.now();
      let reply;
      try {
        // The wait has its own limit (human_timeout_s): the run's timeout_s stops meanwhile.
        reply = await requests.ask(ctx.run, input, ctx);
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        return toolError(ctx, 'request_human', call.input, `request_human failed: ${err instanceof Error ? err.message : String(err)}`);
      }
      const durationMs = performance.now() - started;
      if (reply.kind === 'expired') {
        ctx.recorder.toolCall({ name: 'request_human', input: call.input, output: `nobody answered: ${reply.outcome.detail}`, isError: true, durationMs });
        return { kind: 'finished', outcome: reply.outcome };
      }
      const text = reply.reused ? `${EARLIER_ANSWER}\n${answerText(reply.request)}` : answerText(reply.request);
      ctx.recorder.lastAction(`a person answered (${input.kind})`);
      ctx.recorder.toolCall({ name: 'request_human', input: call.input, output: text, isError: false, durationMs });
      return { kind: 'result', content: textContent(text), isError: false };
    },
  };
}

/** What the agent reads of an answer: what the person said or did, who, and how. */
export function answerText(request: HumanRequestRow): string {
  const who = `${request.answered_by ?? 'a person'}, via ${request.answered_via ?? 'api'}`;
  const note = request.note === null || request.note === '' ? '' : `\nTheir note: ${request.note}`;
  switch (request.kind) {
    case 'answer':
      return `A person answered (${who}):\n${request.answer ?? ''}${note}`;
    case 'approve':
      return request.approved === 1
        ? `A person APPROVED (${who}). You may go ahead with exactly what you asked about.${note}`
        : `A person DENIED the approval (${who}). Do not go ahead; finish with what you have, or ask again with a different proposal.${note}`;
    case 'takeover':
      return `A person took over and handed control back (${who}).${note}\nThe page may have changed: look at it again before going on.`;
    default: {
      const never: never = request.kind;
      throw new Error(`unknown kind ${String(never)}`);
    }
  }
}

export function parseRequestHumanInput(input: Record<string, unknown>): HumanAsk | string {
  const { kind, question, obstacle } = input;
  if (typeof kind !== 'string' || !(HUMAN_KINDS as readonly string[]).includes(kind)) return `request_human: \`kind\` is one of ${HUMAN_KINDS.join(', ')}`;
  if (typeof question !== 'string' || question.trim() === '') return 'request_human: `question` is a non-empty string saying what the person should do or answer';
  if (question.length > QUESTION_MAX) return `request_human: \`question\` is at most ${QUESTION_MAX} characters`;
  if (obstacle !== undefined && (typeof obstacle !== 'string' || !(HUMAN_OBSTACLES as readonly string[]).includes(obstacle))) {
    return `request_human: \`obstacle\` is one of ${HUMAN_OBSTACLES.join(', ')}`;
  }
  if (obstacle !== undefined && kind !== 'takeover') return 'request_human: `obstacle` is for kind takeover only';
  return { kind: kind as HumanAsk['kind'], question: question.trim(), obstacle: (obstacle as HumanObstacle | undefined) ?? null };
}
