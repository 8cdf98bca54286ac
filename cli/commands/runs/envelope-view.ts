import type { Run, RunCheck, RunCreated } from '../../api.js';
import type { CliContext } from '../../context.js';
import type { Column } from '../../output.js';
import { humanRequestLines, type LogLine } from '../../run-progress.js';
import { plural } from '../../../src/text/plural.js';

/** A warning of a run's creation or check: `{code, message, param}`. */
type RunWarning = RunCreated['warnings'][number];

export const runColumns: Column<Run>[] = [
  { header: 'ID', value: (r) => r.task_id },
  { header: 'STATUS', value: (r) => r.status },
  { header: 'MODE', value: (r) => (r.livemode ? r.mode : 'test') },
  { header: 'REASON', value: (r) => r.failure_code ?? r.failure_reason },
  { header: 'MODEL', value: (r) => r.model },
  { header: 'STEPS', value: (r) => r.progress?.steps },
  { header: 'COST USD', value: (r) => r.usage.cost_usd },
  { header: 'JOB', value: (r) => r.job_id },
  { header: 'NAME', value: (r) => r.name, max: 30 },
  { header: 'CREATED', value: (r) => r.created_at },
];

/** The exit code a finished (terminal) run gives `runs create --wait`: 0 when it succeeded, 1 when it failed or was cancelled. */
export function exitCodeOf(envelope: Run): number {
  return envelope.status === 'succeeded' ? 0 : 1;
}

export function printEnvelope(ctx: CliContext, envelope: Run): void {
  ctx.out.result(envelope, () => {
    const u = envelope.usage;
    ctx.out.fields([
      ['run', envelope.task_id],
      ['status', envelope.status],
      ['mode', modeOf(envelope)],
      ['failure', failureOf(envelope)],
      ['confidence', confidenceOf(envelope)],
      ['model', envelope.model],
      ['project', envelope.project_id],
      ['job', envelope.job_id],
      ['name', envelope.name],
      ['steps', envelope.progress?.steps],
      ['last action', envelope.progress?.last_action],
      ['waiting for', waitingOf(envelope)],
      ['usage', `${u.input_tokens} in / ${u.output_tokens} out tokens, $${u.cost_usd.toFixed(4)}${u.duration_ms === null ? '' : `, ${(u.duration_ms / 1000).toFixed(1)} s`}`],
      ['evidence', envelope.evidence && [envelope.evidence.matched_text && `"${envelope.evidence.matched_text}"`, envelope.evidence.screenshot_url].filter(Boolean).join(' ')],
      ['recording', envelope.evidence?.recording_url && `${ctx.cliName} runs open ${envelope.task_id} --recording (or --trace)`],
      ['files', filesOf(ctx, envelope)],
      ['created', envelope.created_at],
      ['finished', envelope.finished_at],
    ]);
    for (const file of envelope.files) ctx.out.line(`  ${file.name}  ${byteSize(file.size)}  ${file.content_type}`);
    for (const warning of envelope.warnings) ctx.out.line(`warning: ${warning}`);
    for (const line of copyLines(ctx, envelope)) ctx.out.line(`${line.label}:\n${line.copy}`);
    if (envelope.result !== null) {
      ctx.out.line('result:');
      ctx.out.line(JSON.stringify(envelope.result, null, 2));
    }
  });
}

/** How the run ran, in words: the agent, a replay of its job's recipe, or test mode (no model, no sandbox). */
export function modeOf(envelope: Run): string {
  if (!envelope.livemode) return 'test mode (livemode: false; no model call, no browser, nothing spent)';
  switch (envelope.mode) {
    case 'replay':
      return "replay (the job's recipe, no model call)";
    case 'replay_then_agent':
      return 'replay, then the agent took over where the page changed';
    case 'agent':
      return 'agent';
    default: {
      const unknown: never = envelope.mode;
      throw new Error(`unknown run mode ${String(unknown)}`);
    }
  }
}

/** The confidence, and who set it: a replay, test mode, the result's check against output_schema, or the agent. */
export function confidenceOf(envelope: Run): string | null {
  const c = envelope.confidence;
  if (c === null) return null;
  if (!envelope.livemode) return `${c} (test mode: high unless an errand_test token asks for another)`;
  if (envelope.mode === 'replay') return `${c} (a replay: the result is read where the job's recipe says, and no model judged the page)`;
  if (c === 'low' && envelope.status === 'succeeded' && envelope.warnings.length > 0) return `${c} (see the warnings)`;
  return c === 'medium' ? `${c} (the agent's judgement, or the default when it gave none)` : `${c} (the agent's judgement)`;
}

/** `2 files (runs files <id> --save DIR)`: the files are listed under the fields. */
function filesOf(ctx: CliContext, envelope: Run): string | null {
  if (envelope.files.length === 0) return null;
  return `${plural(envelope.files.length, 'file')} (save them: ${ctx.cliName} runs files ${envelope.task_id} --save DIR)`;
}

/**
 * What to copy from the envelope, each on a line of its own: the commands that answer the person the run waits
 * for, and its live view (once: the running run's own link, else the one made with the question).
 */
function copyLines(ctx: CliContext, envelope: Run): Extract<LogLine, { copy: string }>[] {
  const w = envelope.waiting_for;
  const person = w !== null && w !== undefined && w.on === 'person' && w.request_id !== null && w.kind !== null && w.question !== null && w.expires_at !== null;
  const asked = person ? humanRequestLines({ run_id: envelope.task_id, request_id: w.request_id!, kind: w.kind!, question: w.question!, expires_at: w.expires_at!, live_url: envelope.live_url ?? w.live_url }, ctx.cliName) : [];
  const lines = asked.filter((line): line is Extract<LogLine, { copy: string }> => 'copy' in line);
  if (asked.length === 0 && envelope.live_url !== null) lines.push({ label: 'live view (a signed link, valid 30 min)', copy: envelope.live_url });
  return lines;
}

function byteSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

export function printAccepted(ctx: CliContext, accepted: RunCreated): void {
  ctx.out.result(accepted, () => {
    ctx.out.fields([
      ['run', accepted.task_id],
      ['status', accepted.status],
      ['mode', accepted.livemode ? null : 'test mode (livemode: false; no model call, no browser, nothing spent)'],
      ['poll', accepted.poll_url],
      ['estimate', estimateOf(accepted.billing)],
    ]);
  });
  printWarnings(ctx, accepted.warnings);
}

/** `runs create --check`: what creating the run would do. */
export function printCheck(ctx: CliContext, check: RunCheck): void {
  ctx.out.result(check, () => {
    ctx.out.fields([
      ['check', check.replay_of === null ? 'passed: the run would be created' : `passed: its idempotency key would answer ${check.replay_of} again`],
      ['estimate', estimateOf(check.billing)],
    ]);
  });
  printWarnings(ctx, check.warnings);
}

/** On stderr, with --json too (where they are also in the JSON): a run that will fail should not pass unnoticed. */
export function printWarnings(ctx: CliContext, warnings: readonly RunWarning[]): void {
  for (const w of warnings) ctx.out.warn(w.message);
}

/** What a running run waits for; the commands that answer it follow the fields. */
function waitingOf(envelope: Run): string | null {
  const w = envelope.waiting_for;
  if (w === null || w === undefined) return null;
  switch (w.on) {
    case 'person':
      return `a person (${w.kind}): ${w.question} (until ${w.expires_at})`;
    case 'takeover':
      return `${w.by ?? 'a person'} to hand the browser back (until ${w.expires_at})`;
    case 'email':
      return `an email at its address (until ${w.expires_at})`;
    default: {
      const unknown: never = w.on;
      throw new Error(`unknown wait ${String(unknown)}`);
    }
  }
}

function estimateOf(b: RunCreated['billing']): string {
  const cap = b.monthly_cap_usd === null ? 'no monthly cap on this key' : `monthly cap $${b.monthly_cap_usd.toFixed(2)}`;
  return `$${b.estimated_cost_usd.low}–$${b.estimated_cost_usd.high} (${b.estimated_credits.low}–${b.estimated_credits.high} credits) on ${b.model}; ${cap}`;
}

/** `reason: detail`, with the detail left out when it only repeats the reason ("not_found: not_found"). */
export function failureOf(envelope: Pick<Run, 'failure_reason' | 'failure_code' | 'failure_detail'>): string | null {
  const { failure_detail: detail } = envelope;
  const reason = envelope.failure_code === null ? envelope.failure_reason : `${envelope.failure_reason} (${envelope.failure_code})`;
  if (reason === null) return detail;
  return detail === null || detail.trim() === '' || detail.trim() === reason ? reason : `${reason}: ${detail}`;
}
