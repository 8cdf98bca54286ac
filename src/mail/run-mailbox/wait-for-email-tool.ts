import { performance } from 'node:perf_hooks';
import { truncateEnd } from '../../agent-tools/truncate.js';
import { type AgentTool } from '../../agent-tools/agent-tool.js';
import { textContent } from '../../agent-tools/tool-content.js';

export interface WaitForEmailInput {
  from?: string;
  subjectContains?: string;
  timeoutS: number;
}

/** A message as the agent reads it. */
export interface AgentMail {
  from: string;
  subject: string;
  receivedAt: string;
  text: string;
  /** Links found in the message, in order, without repeats. */
  links: string[];
}

export const WAIT_DEFAULT_S = 120;
export const WAIT_MAX_S = 600;
/** What the model reads of a message's text at most. */
const TEXT_LIMIT = 8_000;

/** Waits for mail at the run's address; `next` answers the next unread matching message, or null at the timeout. */
export function waitForEmailTool(next: (input: WaitForEmailInput, signal: AbortSignal) => Promise<AgentMail | null>): AgentTool<WaitForEmailInput> {
  return {
    spec: {
      name: 'wait_for_email',
      description:
        "Wait for an email at this run's address (see email_address) and read it: its sender, subject, text and links. " +
        `Each message is returned once. Waits up to timeout_s seconds (default ${WAIT_DEFAULT_S}, at most ${WAIT_MAX_S}).`,
      inputSchema: {
        type: 'object',
        properties: {
          from: { type: 'string', description: "Only mail whose sender's address contains this." },
          subject_contains: { type: 'string', description: 'Only mail whose subject contains this (any case).' },
          timeout_s: { type: 'integer', minimum: 1, maximum: WAIT_MAX_S },
        },
      },
    },
    summary: "wait_for_email: wait for and read an email sent to this run's address (codes, magic links).",
    parse: parseWaitForEmailInput,
    async execute(input, ctx, call) {
      ctx.recorder.lastAction(`waiting for email${input.subjectContains ? ` about "${input.subjectContains}"` : ''}`);
      const started = performance.now();
      // The run's timeout_s runs meanwhile: the agent chose to wait, at most timeout_s (WAIT_MAX_S) of it.
      const mail = await ctx.waits.during({ kind: 'email', timeoutS: input.timeoutS }, async (signal) => {
        const found = await next(input, signal);
        return found === null ? null : { value: found, why: `an email came from ${found.from}` };
      });
      const text =
        mail === null
          ? `No email arrived within ${input.timeoutS} s${input.from || input.subjectContains ? ' that matched the filter' : ''}.`
          : [
              `From: ${mail.from}`,
              `Subject: ${mail.subject}`,
              `Received: ${mail.receivedAt}`,
              ...(mail.links.length === 0 ? [] : ['Links:', ...mail.links.map((l) => `- ${l}`)]),
              '',
              truncateEnd(mail.text, TEXT_LIMIT),
            ].join('\n');
      ctx.recorder.toolCall({ name: 'wait_for_email', input: call.input, output: text, isError: false, durationMs: performance.now() - started });
      return { kind: 'result', content: textContent(text), isError: false };
    },
  };
}

export function parseWaitForEmailInput(input: Record<string, unknown>): WaitForEmailInput | string {
  const { from, subject_contains: subject, timeout_s: timeout } = input;
  if (from !== undefined && (typeof from !== 'string' || from === '')) return 'wait_for_email: `from` is a non-empty string';
  if (subject !== undefined && (typeof subject !== 'string' || subject === '')) return 'wait_for_email: `subject_contains` is a non-empty string';
  if (timeout !== undefined && (typeof timeout !== 'number' || !Number.isInteger(timeout) || timeout < 1 || timeout > WAIT_MAX_S)) {
    return `wait_for_email: \`timeout_s\` is a whole number of seconds from 1 to ${WAIT_MAX_S}`;
  }
  return {
    ...(from === undefined ? {} : { from: from as string }),
    ...(subject === undefined ? {} : { subjectContains: subject as string }),
    timeoutS: (timeout as number | undefined) ?? WAIT_DEFAULT_S,
  };
}
