import { truncateMiddle } from '../agent-tools/truncate.js';
import type { ExecResult } from './protocol.js';

/** What the model reads of one stream at most; the supervisor has already cut each stream to its own limit. */
const STREAM_LIMIT = 10_000;

/** What the model reads back of a program's run: its exit, and its output cut in the middle. */
export function codeResultText(result: ExecResult, timeoutS: number): string {
  const status = result.timedOut ? `killed after the ${timeoutS} s limit` : `exit code ${result.exitCode ?? '(none)'}`;
  const parts = [status];
  parts.push(result.stdout === '' ? 'stdout: (empty)' : `stdout:\n${truncateMiddle(result.stdout, STREAM_LIMIT)}`);
  if (result.stderr !== '') parts.push(`stderr:\n${truncateMiddle(result.stderr, STREAM_LIMIT)}`);
  return parts.join('\n');
}
