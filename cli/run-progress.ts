import type { RunStatus } from '../src/vocabulary/run-status.js';
import type { RunMode } from '../src/store/runs-table.js';
import type { RunUpdate, StreamedStep } from './run-updates.js';

/** What the live line of a run shows. */
export interface RunProgress {
  status: RunStatus | null;
  steps: number;
  costUsd: number;
  lastAction: string | null;
  /** How the run goes so far (replay, the agent, or a replay the agent took over), from its steps; null before any. */
  mode: RunMode | null;
}

export const NO_PROGRESS: RunProgress = { status: null, steps: 0, costUsd: 0, lastAction: null, mode: null };

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
      return { ...progress, status: update.envelope.status, costUsd: update.envelope.usage.cost_usd, mode: update.envelope.mode };
    case 'live':
      return progress;
    default: {
      const unknown: never = update;
      throw new Error(`unknown run update ${JSON.stringify(unknown)}`);
    }
  }
}

/** The line an update leaves in the progress log, or null for the envelope (printed on its own). */
export function updateLine(update: RunUpdate): string | null {
  switch (update.kind) {
    case 'status':
      return `status ${update.to}${update.from === null ? '' : ` (${update.description})`}`;
    case 'step': {
      const s = update.step;
      const attempt = s.attempt > 1 ? ` (attempt ${s.attempt})` : '';
      const tokens = s.kind === 'model' ? ` · ${s.usage.input_tokens} in / ${s.usage.output_tokens} out tokens` : '';
      return `step ${s.seq}${attempt} · ${stepAction(s)}${s.is_error ? ' · error' : ''}${tokens} · ${seconds(s.duration_ms)} · ${usd(s.run_cost_usd)} so far`;
    }
    case 'end':
      return null;
    case 'live':
      return `live view (a signed link, valid 30 min; runs get gives a fresh one): ${update.url}`;
    default: {
      const unknown: never = update;
      throw new Error(`unknown run update ${JSON.stringify(unknown)}`);
    }
  }
}

/**
 * `running · 3 steps · $0.0123 · browser.navigate https://...`: the live line, with `replay` or `replay_then_agent`
 * after the status when the run replays; the agent's own runs, most of them, say nothing of it.
 */
export function progressSummary(progress: RunProgress): string {
  const steps = `${progress.steps} step${progress.steps === 1 ? '' : 's'}`;
  const mode = progress.mode === 'agent' ? null : progress.mode;
  return [progress.status ?? 'connecting', mode, steps, usd(progress.costUsd), progress.lastAction].filter((p): p is string => p !== null).join(' · ');
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
