import type { ModelAlias } from '../vocabulary/models.js';
import type { ActionSpace } from '../vocabulary/action-spaces.js';
import type { Confidence, FailureCode, FailureReason } from '../vocabulary/run-outcomes.js';
import { fromJson } from '../store/json-columns.js';
import type { RunRow } from '../store/runs-table.js';
import type { RunMode } from '../vocabulary/run-modes.js';
import type { RunStatus } from '../vocabulary/run-status.js';
import { waitingForOf, type LiveUrlOf, type WaitingFor } from './waiting-for.js';
import type { RunFile } from '../run-files/run-files-service.js';


/** What the engine stores in `runs.evidence`; the envelope turns the artifact into a signed link. */
export interface StoredEvidence {
  artifact_id: string | null;
  matched_text: string | null;
  checked_at: string;
  /** The run's recording (video and trace); absent in evidence stored before recordings existed. */
  recording_artifact_id?: string | null;
  trace_artifact_id?: string | null;
}

export interface RunEnvelope {
  task_id: string;
  object: 'run';
  /** False for a run of test mode (issue 25): its organisation's mode, the same in responses and in events. */
  livemode: boolean;
  status: RunStatus;
  result: Record<string, unknown> | null;
  confidence: Confidence | null;
  evidence: {
    screenshot_url: string | null;
    matched_text: string | null;
    checked_at: string;
    /** Signed links to the run's video (WebM) and Playwright trace (zip); null when the run was not recorded. */
    recording_url: string | null;
    trace_url: string | null;
  } | null;
  failure_reason: FailureReason | null;
  /** The finer reason, where the engine has one (budget_exceeded): additive, beside the spec's six failure reasons. */
  failure_code: FailureCode | null;
  failure_detail: string | null;
  warnings: string[];
  usage: { duration_ms: number | null; input_tokens: number; output_tokens: number; cost_usd: number };
  /** The run's hard cost limit (its own, its job's or its key's), or null. */
  max_cost_usd: number | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  job_id: string | null;
  project_id: string;
  name: string | null;
  model: ModelAlias;
  attempt: number;
  /** How far a run has got, for progress displays: model and tool steps so far, and the latest action. */
  progress: { steps: number; last_action: string | null };
  /** What the running run waits for: a person its agent asked (issue 22), or null. */
  waiting_for: WaitingFor | null;
  /**
   * The run's live view (a signed, short-lived link; docs/api.md, Live view): only in GET /v1/runs/{id} while the
   * run is running, null everywhere else (lists, events, webhooks), since the link is a credential.
   */
  live_url: string | null;
  /** The run's files (issue 23): its browser's downloads and what its code wrote under /workspace/out/; [] until it ends. */
  files: RunFile[];
  /** How the run ran: the agent, a replay of its job's recipe, or a replay the agent took over (issue 24). */
  mode: RunMode;
  /** The host label it asked for and the sandbox host its latest attempt was placed on (issue 26). */
  sandbox: { label: string | null; host: string | null };
  /** How its agent works a page (docs/api.md, Action spaces). */
  action_space: ActionSpace;
}

/** Turns an artifact (screenshot, recording, trace) into a signed, expiring URL (the artifacts service does this); null once retention removes it. */
export type ScreenshotLinker = (artifactId: string) => string | null;

export function toEnvelope(row: RunRow, livemode: boolean, linkScreenshot: ScreenshotLinker, nowMs: number, liveUrlOf: LiveUrlOf = () => null, files: RunFile[] = []): RunEnvelope {
  const ev = fromJson<StoredEvidence>(row.evidence);
  const started = row.started_at === null ? null : Date.parse(row.started_at);
  const ended = row.finished_at === null ? nowMs : Date.parse(row.finished_at);
  return {
    task_id: row.id,
    object: 'run',
    livemode,
    status: row.status,
    result: fromJson(row.result),
    confidence: row.confidence,
    evidence: ev && {
      screenshot_url: ev.artifact_id ? linkScreenshot(ev.artifact_id) : null,
      matched_text: ev.matched_text,
      checked_at: ev.checked_at,
      recording_url: ev.recording_artifact_id ? linkScreenshot(ev.recording_artifact_id) : null,
      trace_url: ev.trace_artifact_id ? linkScreenshot(ev.trace_artifact_id) : null,
    },
    failure_reason: row.failure_reason,
    failure_code: row.failure_code,
    failure_detail: row.failure_detail,
    warnings: fromJson<string[]>(row.warnings) ?? [],
    usage: {
      duration_ms: started === null ? null : Math.max(0, ended - started),
      input_tokens: row.input_tokens,
      output_tokens: row.output_tokens,
      cost_usd: row.cost_usd,
    },
    max_cost_usd: row.max_cost_usd,
    created_at: row.created_at,
    started_at: row.started_at,
    finished_at: row.finished_at,
    job_id: row.job_id,
    project_id: row.project_id,
    name: row.name,
    model: row.model,
    attempt: row.attempt,
    progress: { steps: row.step_count, last_action: row.last_action },
    // Only a running run has a live view.
    waiting_for: waitingForOf(row.waiting_for, row.org_id, row.id, row.status === 'running' ? liveUrlOf : () => null),
    live_url: null,
    files,
    mode: row.mode,
    sandbox: { label: row.sandbox_label, host: row.sandbox_host },
    action_space: row.action_space,
  };
}
