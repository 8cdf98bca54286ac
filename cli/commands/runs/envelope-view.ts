import type { RunAccepted, RunCheck, RunEnvelope, RunWarning } from '../../api-client.js';
import type { CliContext } from '../../context.js';
import type { Column } from '../../output.js';

export const runColumns: Column<RunEnvelope>[] = [
  { header: 'ID', value: (r) => r.task_id },
  { header: 'STATUS', value: (r) => r.status },
  { header: 'MODE', value: (r) => r.mode },
  { header: 'REASON', value: (r) => r.failure_reason },
  { header: 'MODEL', value: (r) => r.model },
  { header: 'STEPS', value: (r) => r.progress?.steps },
  { header: 'COST USD', value: (r) => r.usage.cost_usd },
  { header: 'JOB', value: (r) => r.job_id },
  { header: 'NAME', value: (r) => r.name, max: 30 },
  { header: 'CREATED', value: (r) => r.created_at },
];

/** The exit code a finished (terminal) run gives `runs create --wait`: 0 when it succeeded, 1 when it failed or was cancelled. */
export function exitCodeOf(envelope: RunEnvelope): number {
  return envelope.status === 'succeeded' ? 0 : 1;
}

export function printEnvelope(ctx: CliContext, envelope: RunEnvelope): void {
  ctx.out.result(envelope, () => {
    const u = envelope.usage;
    ctx.out.fields([
      ['run', envelope.task_id],
      ['status', envelope.status],
      ['mode', modeOf(envelope)],
      ['failure', failureOf(envelope)],
      ['confidence', envelope.confidence],
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
      ['created', envelope.created_at],
      ['finished', envelope.finished_at],
    ]);
    for (const warning of envelope.warnings) ctx.out.line(`warning: ${warning}`);
    if (envelope.result !== null) {
      ctx.out.line('result:');
      ctx.out.line(JSON.stringify(envelope.result, null, 2));
    }
  });
}

/** How the run ran, in words: the agent, or a replay of its job's recipe. */
export function modeOf(envelope: RunEnvelope): string {
  switch (envelope.mode) {
    case 'replay':
      return "replay (the job's recipe, no model call)";
    case 'replay_then_agent':
      return 'replay, then the agent took over where the page changed';
    default:
      return 'agent';
  }
}

export function printAccepted(ctx: CliContext, accepted: RunAccepted): void {
  ctx.out.result(accepted, () => {
    ctx.out.fields([
      ['run', accepted.task_id],
      ['status', accepted.status],
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

/** What a running run waits for, and how to answer it. */
function waitingOf(envelope: RunEnvelope): string | null {
  const w = envelope.waiting_for;
  if (w === null || w === undefined) return null;
  const how = w.kind === 'answer' ? '--text <answer>' : w.kind === 'approve' ? '--approve | --deny' : '--done';
  return `a person (${w.kind}): ${w.question} [until ${w.expires_at}; errand runs answer ${envelope.task_id} --request ${w.request_id} ${how}]${w.live_url === null ? '' : ` live view: ${w.live_url}`}`;
}

function estimateOf(b: RunAccepted['billing']): string {
  const cap = b.monthly_cap_usd === null ? 'no monthly cap on this key' : `monthly cap $${b.monthly_cap_usd.toFixed(2)}`;
  return `$${b.estimated_cost_usd.low}–$${b.estimated_cost_usd.high} (${b.estimated_credits.low}–${b.estimated_credits.high} credits) on ${b.model}; ${cap}`;
}

/** `reason: detail`, with the detail left out when it only repeats the reason ("not_found: not_found"). */
export function failureOf(envelope: Pick<RunEnvelope, 'failure_reason' | 'failure_detail'>): string | null {
  const { failure_reason: reason, failure_detail: detail } = envelope;
  if (reason === null) return detail;
  return detail === null || detail.trim() === '' || detail.trim() === reason ? reason : `${reason}: ${detail}`;
}
