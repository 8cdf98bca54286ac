import type { Run, Step } from '../../api.js';
import { stepAction } from '../../run-progress.js';
import type { RunDetail } from './dashboard-data.js';
import type { DetailLine } from './detail-view.js';
import { money } from './format.js';
import { statusColor } from './status-colors.js';
import { plural } from '../../../src/text/plural.js';

const RESULT_LINES = 8;

/**
 * Everything the detail view can show of a run, as lines; the view shows a window of them. What is cut nowhere else
 * (the failure's detail, warnings, the evidence's text) wraps. Pure.
 */
export function runDetailLines(detail: RunDetail, cliName: string): DetailLine[] {
  const e = detail.envelope;
  if (e === null) return [{ text: `${detail.runId}: loading…` }];
  const lines: DetailLine[] = [
    { text: `${e.task_id}  ${e.status}  ${e.mode === 'agent' ? e.model : e.mode}${e.name ? `  "${e.name}"` : ''}`, color: statusColor(e.status), bold: true },
    { text: [e.job_id ? `job ${e.job_id}` : `project ${e.project_id}`, `created ${e.created_at.slice(0, 19).replace('T', ' ')}`, e.attempt > 1 ? `attempt ${e.attempt}` : null].filter(Boolean).join(' · ') },
    { text: `usage: ${e.usage.input_tokens} in / ${e.usage.output_tokens} out tokens · ${money(e.usage.cost_usd)}${e.usage.duration_ms === null ? '' : ` · ${(e.usage.duration_ms / 1000).toFixed(1)} s`}` },
  ];
  if (e.waiting_for !== null && e.waiting_for !== undefined) {
    const w = e.waiting_for;
    const until = w.expires_at === null ? '' : `until ${w.expires_at.slice(0, 19).replace('T', ' ')} · `;
    if (w.on === 'person') {
      lines.push({ text: `waiting for a person (${w.kind}): ${w.question}`, color: 'yellow', bold: true, wraps: true });
      lines.push({ text: `${until}a to answer here, or ${cliName} runs answer ${e.task_id}`, color: 'yellow' });
    } else {
      lines.push({ text: w.on === 'takeover' ? `paused: ${w.by ?? 'a person'} has control of the browser` : 'waiting for an email at its address', color: 'yellow', bold: true, wraps: true });
      if (until !== '') lines.push({ text: until.slice(0, -3), color: 'yellow' });
    }
  }
  // Once: the running run's own link, else the one made with the person's question.
  const live = e.live_url ?? e.waiting_for?.live_url ?? null;
  if (live !== null) lines.push({ text: 'live view (see the browser, take control):', color: 'cyan' }, { text: live, copy: true });
  if (e.failure_reason !== null) lines.push({ text: `failure: ${e.failure_reason}${e.failure_code === null ? '' : ` (${e.failure_code})`}${e.failure_detail && e.failure_detail !== e.failure_reason ? `: ${e.failure_detail}` : ''}`, color: 'red', wraps: true });
  if (e.result !== null) {
    const result = JSON.stringify(e.result, null, 2).split('\n');
    lines.push({ text: `result (confidence ${e.confidence ?? '-'}):`, bold: true });
    for (const l of result.slice(0, RESULT_LINES)) lines.push({ text: `  ${l}` });
    if (result.length > RESULT_LINES) lines.push({ text: `  … ${plural(result.length - RESULT_LINES, 'more line')} (${cliName} runs get ${e.task_id} --json)`, color: 'gray' });
  }
  lines.push(...evidenceLines(e, cliName));
  lines.push(...fileLines(e, cliName));
  for (const w of e.warnings) lines.push({ text: `warning: ${w}`, color: 'yellow', wraps: true });
  lines.push({ text: `steps (${detail.steps.length})`, bold: true });
  for (const s of detail.steps) lines.push(stepLine(s));
  return lines;
}

function evidenceLines(e: Run, cliName: string): DetailLine[] {
  if (e.evidence === null) return [];
  const lines: DetailLine[] = [];
  if (e.evidence.matched_text) lines.push({ text: `evidence: "${e.evidence.matched_text}"`, wraps: true });
  if (e.evidence.screenshot_url) lines.push({ text: `screenshot: ${cliName} runs open ${e.task_id}` });
  if (e.evidence.recording_url) lines.push({ text: `recording: ${cliName} runs open ${e.task_id} --recording (or --trace)` });
  return lines;
}

/** The run's files (issue 23): name, size, type and the start of the SHA-256, and how to save them. */
function fileLines(e: Run, cliName: string): DetailLine[] {
  if (e.files.length === 0) return [];
  const width = Math.min(40, Math.max(...e.files.map((f) => f.name.length)));
  return [
    { text: `files (${e.files.length}) · ${cliName} runs files ${e.task_id} --save DIR`, bold: true },
    ...e.files.map((f) => ({ text: `  ${f.name.length > width ? `${f.name.slice(0, width - 1)}…` : f.name.padEnd(width)}  ${size(f.size).padStart(9)}  ${f.content_type}  ${f.sha256.slice(0, 12)}` })),
  ];
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

function stepLine(s: Step): DetailLine {
  const tokens = s.kind === 'model' ? ` · ${s.usage.input_tokens}/${s.usage.output_tokens} tok` : '';
  const cost = s.usage.cost_usd > 0 ? ` · ${money(s.usage.cost_usd)}` : '';
  return { text: `${String(s.seq).padStart(3)} ${stepAction(s)}${tokens} · ${(s.duration_ms / 1000).toFixed(1)} s${cost}`, ...(s.is_error ? { color: 'red' } : {}) };
}
