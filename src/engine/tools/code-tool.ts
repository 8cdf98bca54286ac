import type { CodeLanguage, ExecResult } from '../../sandbox/protocol.js';
import { truncateMiddle } from '../truncate.js';
import { CODE_LANGUAGES } from './tool-specs.js';

/** What the model reads of one stream at most; the supervisor has already cut each stream to its own limit. */
const STREAM_LIMIT = 10_000;

export function parseCodeInput(input: Record<string, unknown>): { language: CodeLanguage; code: string } | string {
  const language = input.language;
  if (typeof language !== 'string' || !(CODE_LANGUAGES as readonly string[]).includes(language)) {
    return `run_code: \`language\` is one of ${CODE_LANGUAGES.join(', ')}`;
  }
  if (typeof input.code !== 'string' || input.code.trim() === '') return 'run_code needs the program text in `code`';
  return { language: language as CodeLanguage, code: input.code };
}

export function codeResultText(result: ExecResult, timeoutS: number): string {
  const status = result.timedOut ? `killed after the ${timeoutS} s limit` : `exit code ${result.exitCode ?? '(none)'}`;
  const parts = [status];
  parts.push(result.stdout === '' ? 'stdout: (empty)' : `stdout:\n${truncateMiddle(result.stdout, STREAM_LIMIT)}`);
  if (result.stderr !== '') parts.push(`stderr:\n${truncateMiddle(result.stderr, STREAM_LIMIT)}`);
  return parts.join('\n');
}
