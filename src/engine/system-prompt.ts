import type { PlacedInput } from '../attempt/placed-input.js';
import type { Message } from './providers/provider.js';

export interface SystemPromptOptions {
  outputSchema: Record<string, unknown> | null;
  /** One line per tool the attempt has (`AgentTool.summary`). */
  toolSummaries: readonly string[];
  maxSteps: number;
  nowIso: string;
  /** Names of the run's stored secrets, which the browser can type by reference. */
  secretNames: readonly string[];
  /** Names of the run's TOTP connections, whose current codes the browser can type by reference. */
  totpNames: readonly string[];
  /** The run's input files, already in /workspace/in (issue 23). */
  inputFiles: readonly PlacedInput[];
}

/** The agent's standing instructions: its tools, the finish contract and the shape the result must have. */
export function systemPrompt(o: SystemPromptOptions): string {
  const schema =
    o.outputSchema === null
      ? 'No output schema was given: `result` may be any JSON object that answers the task; use short, descriptive member names.'
      : `\`result\` must be a JSON object that validates against this JSON Schema:\n${JSON.stringify(o.outputSchema, null, 2)}`;
  return `You are Errand's agent. You carry out one task on your own, in an isolated sandbox, and report the outcome by calling the \`finish\` tool. Nobody will answer questions: decide for yourself.

# Tools
${o.toolSummaries.map((line) => `- ${line}`).join('\n')}
You have at most ${o.maxSteps} turns; work efficiently and call several tools in one turn when they do not depend on each other.
${secretsLine(o.secretNames)}${totpLine(o.totpNames)}${inputFilesLine(o.inputFiles)}
# Files
Files the task asks you to hand back go into the directory \`out\` of the workspace (/workspace/out): every file your code writes there, and every file the browser downloads (it is saved there by itself), is returned with the run when it ends.

# Finishing
On success, call finish with:
- result: the answer. ${schema}
- confidence: "high" when the source states the answer plainly, "medium" when you had to interpret, "low" when unsure.
- matched_text: the exact text on the page that supports the result (copy it verbatim), or null.
- evidence_screenshot: the id of a screenshot that shows the answer, or "latest". Take a screenshot of the page that shows the answer before you finish.

When the task cannot be done, call finish with result null, a failure_reason and a one-sentence failure_detail:
- site_down: the site cannot be reached or keeps answering with server errors (the browser reports a PROBLEM)
- captcha: a captcha or bot check blocks the way; never try to solve one
- auth_required: the task needs a login or credentials you do not have
- not_found: what the task asks about does not exist
- ambiguous: the task is unclear, or the sources give no definite answer
Never invent an answer: an honest failure is better than a wrong result.

The current time is ${o.nowIso}.`;
}

/** The first message of every attempt: the task itself. */
export function taskMessage(prompt: string): Message {
  return { role: 'user', content: [{ type: 'text', text: `Task:\n${prompt}` }] };
}

function totpLine(names: readonly string[]): string {
  if (names.length === 0) return '';
  const refs = [...new Set(names)].map((n) => `{{totp:${n}}}`).join(', ');
  return `Authenticator (TOTP) codes you may type into a page's code field by reference (the reference is the text a type action types), without ever seeing them: ${refs}. The code is computed when it is typed; submit right after.\n`;
}

function secretsLine(names: readonly string[]): string {
  if (names.length === 0) return '';
  const refs = [...new Set(names)].map((n) => `{{secret:${n}}}`).join(', ');
  return `Stored secrets you may type into pages by reference (the reference is the text a type action types), without ever seeing them: ${refs}. They appear as [secret:<name>] wherever a tool would show them.\n`;
}

function inputFilesLine(files: readonly PlacedInput[]): string {
  if (files.length === 0) return '';
  const list = files.map((f) => `in/${f.name} (${f.size} bytes, ${f.contentType})`).join(', ');
  return (
    `Input files you were given, read-only, in the directory \`in\` of the workspace (your code's working directory; /workspace/in): ${list}. ` +
    `Code can read them there; the browser's upload action sets them, by name, on a page's file input.\n`
  );
}
