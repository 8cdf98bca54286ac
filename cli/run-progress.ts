import type { RunStatus } from '../src/vocabulary/run-status.js';
import type { RunMode } from '../src/vocabulary/run-modes.js';
import type { HumanRequest, RunUpdate, StreamedStep } from './run-updates.js';

/** What the live line of a run shows. */
export interface RunProgress {
  status: RunStatus | null;
  steps: number;
  costUsd: number;
  lastAction: string | null;
  /** How the run goes so far (replay, the agent, or a replay the agent took over), from its steps; null before any. */
  mode: RunMode | null;
  /** What the agent waits for a person to do, while it waits. */
  waitingFor: HumanRequest['kind'] | null;
}

export const NO_PROGRESS: RunProgress = { status: null, steps: 0, costUsd: 0, lastAction: null, mode: null, waitingFor: null };

/** A replay's steps are named `replay.<tool>`; a model step after them means the agent took over. */
function modeAfter(mode: RunMode | null, step: StreamedStep): RunMode | null {
  if (step.name.startsWith('replay.')) return mode ?? 'replay';
  if (step.kind !== 'model') return mode;
  return mode === 'replay' || mode === 'replay_then_agent' ? 'replay_then_agent' : 'agent';
}

/** The progress after an update. Pure, so the Ink view and the plain-line printer agree. */
export function advance(progress: RunProgress, update: RunUpdate): RunProgress {
  switch (update.kind) {
    case 'status':
      return { ...progress, status: update.to };
    case 'step':
      return { ...progress, steps: progress.steps + 1, costUsd: update.step.run_cost_usd, lastAction: stepAction(update.step), mode: modeAfter(progress.mode, update.step) };
    case 'end':
      return { ...progress, status: update.envelope.status, costUsd: update.envelope.usage.cost_usd, mode: update.envelope.mode, waitingFor: null };
    case 'live':
      return progress;
    case 'needs_human':
      return { ...progress, waitingFor: update.request.kind };
    case 'human_answered':
      return { ...progress, waitingFor: null };
    default: {
      const unknown: never = update;
      throw new Error(`unknown run update ${JSON.stringify(unknown)}`);
    }
  }
}

/**
 * A line of the progress log: words, or something to copy whole (a command, a link) after its label. A terminal view
 * puts the latter on a line of its own, unindented and never wrapped by the view, so that it copies in one piece.
 */
export type LogLine = { text: string } | { label: string; copy: string };

/** The lines an update leaves in the progress log; none for the envelope (printed on its own). */
export function updateLines(update: RunUpdate, cliName: string): LogLine[] {
  switch (update.kind) {
    case 'status':
      return [{ text: `status ${update.to}${update.from === null ? '' : ` (${update.description})`}` }];
    case 'step': {
      const s = update.step;
      const attempt = s.attempt > 1 ? ` (attempt ${s.attempt})` : '';
      const tokens = s.kind === 'model' ? ` · ${s.usage.input_tokens} in / ${s.usage.output_tokens} out tokens` : '';
      return [{ text: `step ${s.seq}${attempt} · ${stepAction(s)}${s.is_error ? ' · error' : ''}${tokens} · ${seconds(s.duration_ms)} · ${usd(s.run_cost_usd)} so far` }];
    }
    case 'end':
      return [];
    case 'live':
      return [{ label: 'live view (a signed link, valid 30 min; runs get gives a fresh one)', copy: update.url }];
    case 'needs_human':
      return humanRequestLines(update.request, cliName);
    case 'human_answered': {
      const a = update.answer;
      const what = a.answer !== null ? JSON.stringify(a.answer) : a.approved === true ? 'approved' : a.approved === false ? 'denied' : 'done';
      return [{ text: `a person answered (${what}, via ${a.answered_via}); the agent goes on` }];
    }
    default: {
      const unknown: never = update;
      throw new Error(`unknown run update ${JSON.stringify(unknown)}`);
    }
  }
}

/**
 * What a run waiting for a person needs from whoever follows it: the question, until when, the exact command that
 * answers it (naming the request, so that it answers this question and no later one), and the live view.
 */
export function humanRequestLines(request: HumanRequest, cliName: string): LogLine[] {
  const answer = `${cliName} runs answer ${request.run_id} --request ${request.request_id}`;
  const lines: LogLine[] = [{ text: `waiting for a person (${request.kind}): ${request.question}` }, { text: `the run fails if nobody answers by ${request.expires_at}` }];
  switch (request.kind) {
    case 'answer':
      lines.push({ label: 'answer with', copy: `${answer} --text '<answer>'` });
      break;
    case 'approve':
      lines.push({ label: 'approve with', copy: `${answer} --approve` }, { label: 'or refuse with', copy: `${answer} --deny` });
      break;
    case 'takeover':
      lines.push({ label: 'do it in the live view, then say so with', copy: `${answer} --done` });
      break;
    default: {
      const unknown: never = request.kind;
      throw new Error(`unknown request kind ${String(unknown)}`);
    }
  }
  if (request.live_url !== null) lines.push({ label: 'live view (see the browser, take control)', copy: request.live_url });
  return lines;
}

/** A log line as one plain line (a log file, CI): `label: copy` for what is to be copied. */
export function plainLine(line: LogLine): string {
  return 'text' in line ? line.text : `${line.label}: ${line.copy}`;
}

/**
 * `running · 3 steps · $0.0123 · browser.navigate https://...`: the live line, with `replay` or `replay_then_agent`
 * after the status when the run replays; the agent's own runs, most of them, say nothing of it. While the agent
 * waits for a person, that replaces the last action.
 */
export function progressSummary(progress: RunProgress): string {
  const steps = `${progress.steps} step${progress.steps === 1 ? '' : 's'}`;
  const mode = progress.mode === 'agent' ? null : progress.mode;
  const waiting = progress.waitingFor === null ? null : `waiting for a person (${progress.waitingFor})`;
  return [progress.status ?? 'connecting', mode, waiting, steps, usd(progress.costUsd), waiting === null ? progress.lastAction : null].filter((p): p is string => p !== null).join(' · ');
}

/** What a step did, in a few words: the model it called, or the tool and the gist of its input. */
export function stepAction(step: Pick<StreamedStep, 'kind' | 'name' | 'input'>): string {
  if (step.kind === 'model') return `model ${step.name}`;
  if (step.kind === 'person') return `${step.name} by ${String((step.input as { by?: unknown } | null)?.by ?? 'a person')}`;
  const gist = inputGist(step.input);
  return gist === null ? step.name : `${step.name} ${gist}`;
}

function inputGist(input: unknown): string | null {
  if (input === null || input === undefined) return null;
  if (typeof input !== 'object') return truncate(String(input), 60);
  const record = input as Record<string, unknown>;
  for (const key of ['url', 'selector', 'text', 'code', 'query']) {
    if (typeof record[key] === 'string') return truncate((record[key] as string).replace(/\s+/g, ' '), 60);
  }
  const text = JSON.stringify(input);
  return text === '{}' ? null : truncate(text, 60);
}

export function usd(value: number): string {
  return `$${value.toFixed(4)}`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
