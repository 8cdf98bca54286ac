import { performance } from 'node:perf_hooks';
import type { CodeLanguage } from '../../sandbox/protocol.js';
import { codeResultText } from '../../sandbox/code-result-text.js';
import { type AgentTool } from '../../agent-tools/agent-tool.js';
import { textContent } from '../../agent-tools/tool-content.js';

export const CODE_LANGUAGES = ['bash', 'python', 'node'] as const;

/** Runs a program in the sandbox's workspace; each call is killed after `timeoutS` (`sandbox.code_timeout_s`). */
export function codeTool(timeoutS: number): AgentTool<{ language: CodeLanguage; code: string }> {
  return {
    spec: {
      name: 'run_code',
      description:
        `Run a bash, python or node program in the run's workspace directory (files persist between calls). A call is killed after ${timeoutS} s. ` +
        'You get the exit code, stdout and stderr; long output is cut in the middle.',
      inputSchema: {
        type: 'object',
        required: ['language', 'code'],
        properties: {
          language: { type: 'string', enum: [...CODE_LANGUAGES] },
          code: { type: 'string', description: 'The program text.' },
        },
      },
    },
    summary: `run_code: bash, python or node in the run's workspace; each call is killed after ${timeoutS} s.`,
    parse: parseCodeInput,
    async execute(input, ctx, call) {
      ctx.recorder.lastAction(`run_code ${input.language}`);
      const started = performance.now();
      const result = await ctx.sandbox.exec({ ...input, timeoutMs: timeoutS * 1000 }, ctx.signal);
      const text = codeResultText(result, timeoutS);
      const isError = result.timedOut || result.exitCode !== 0;
      ctx.recorder.toolCall({ name: `run_code.${input.language}`, input: call.input, output: text, isError, durationMs: performance.now() - started });
      return { kind: 'result', content: textContent(text), isError };
    },
  };
}

export function parseCodeInput(input: Record<string, unknown>): { language: CodeLanguage; code: string } | string {
  const language = input.language;
  if (typeof language !== 'string' || !(CODE_LANGUAGES as readonly string[]).includes(language)) {
    return `run_code: \`language\` is one of ${CODE_LANGUAGES.join(', ')}`;
  }
  if (typeof input.code !== 'string' || input.code.trim() === '') return 'run_code needs the program text in `code`';
  return { language: language as CodeLanguage, code: input.code };
}
