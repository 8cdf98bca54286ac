import type { ActionSpace } from '../vocabulary/action-spaces.js';
import type { RunMode } from '../vocabulary/run-modes.js';
import type { ModelAlias } from '../vocabulary/models.js';
import type { Confidence, FailureCode, FailureReason } from '../vocabulary/run-outcomes.js';
import type { RunStatus } from '../vocabulary/run-status.js';
import type { ProfileAccess } from './profiles-table.js';
import { defineColumns, fixed, patchable, type InsertOf, type PatchOf, type RowOf } from './columns.js';

/** Who started a run: a caller through the API, a job's schedule, or an eval of the job (src/evals/). */
export type RunSource = 'api' | 'schedule' | 'eval';

/** Whether a run (or a job's runs) replays a recorded recipe: docs/api.md, Replay. */
export type RunReplay = 'auto' | 'off';

/**
 * The columns of `runs`, the one place a run row is described. JSON members (inputs, output_schema, result, evidence,
 * connections, warnings) are stored as JSON text. `status` changes only through `RunsStore.setStatus`, and
 * `waiting_for` (what a running run waits for, issue 22) only through `RunsStore.setWaiting` (pause, resume) and the
 * moves that take a run out of `running`, which clear it (runs/state-machine.ts).
 */
export const runColumns = defineColumns('runs', {
  id: fixed<string>(),
  org_id: fixed<string>(),
  key_id: fixed<string | null>(),
  project_id: fixed<string>(),
  job_id: fixed<string | null>(),
  name: fixed<string | null>(),
  source: fixed<RunSource>(),
  prompt: fixed<string>(),
  inputs: fixed<string>(),
  model: fixed<ModelAlias>(),
  output_schema: fixed<string | null>(),
  callback_url: fixed<string | null>(),
  connections: fixed<string>(),
  timeout_s: fixed<number>(),
  /** 1: the browser is recorded (unless recording.enabled is off); decided when the run is made. */
  recording: fixed<0 | 1>(),
  /** The proxy connection the run leaves through (its own, else its job's); null: sandbox.egress_proxy, if set. */
  proxy: patchable<string | null>(null),
  /** The sandbox host label the run asks for (its own, else its job's; issue 26); null: any host. */
  sandbox_label: patchable<string | null>(null),
  /** The sandbox host its latest attempt was placed on (issue 26); null: not placed, or no sandbox.hosts. */
  sandbox_host: patchable<string | null>(null),
  /** The profile (saved login) its browser starts with (its own, else its job's); null: a browser signed in nowhere. */
  profile: patchable<string | null>(null),
  /** Whether the run writes its profile back when it succeeds (its own, else its job's). */
  profile_mode: patchable<ProfileAccess>('read_write'),
  /** The profile the run saves its browser's state to when it succeeds (its own, else its job's); null: none. */
  save_profile: patchable<string | null>(null),
  /** How long a person has to answer the agent (request_human); null: human.timeout_s. Set when the run is created. */
  human_timeout_s: patchable<number | null>(null),
  /** Who is emailed when the agent asks for a person. Set when the run is created. */
  human_email: patchable<string | null>(null),
  /** 1 when a form may be submitted only after a person approved (request_human, kind approve). Set when the run is created. */
  require_approval: patchable<number>(0),
  /** The most the run may cost in USD (its own, else its job's, else its key's max_run_cost_usd); null: no limit. */
  max_cost_usd: patchable<number | null>(null),
  /** The W3C traceparent the run was created under (POST /v1/runs's header): its trace is a child of the caller's. */
  traceparent: patchable<string | null>(null),
  /** 'auto': the run replays its job's recipe when there is one (issue 24); resolved when the run is created. */
  replay: patchable<RunReplay>('off'),
  /** How the agent works a page: the browser tool ('dom') or the model's own computer-use tool; set when the run is made. */
  action_space: patchable<ActionSpace>('dom'),
  /** How the run ran: the agent, a replay of its job's recipe, or a replay the agent took over (set when it ends). */
  mode: patchable<RunMode>('agent'),
  status: fixed<RunStatus>(),
  attempt: patchable<number>(0),
  result: patchable<string | null>(null),
  confidence: patchable<Confidence | null>(null),
  evidence: patchable<string | null>(null),
  failure_reason: patchable<FailureReason | null>(null),
  failure_code: patchable<FailureCode | null>(null),
  failure_detail: patchable<string | null>(null),
  warnings: patchable<string>('[]'),
  input_tokens: patchable<number>(0),
  output_tokens: patchable<number>(0),
  cost_usd: patchable<number>(0),
  step_count: patchable<number>(0),
  last_action: patchable<string | null>(null),
  waiting_for: patchable<string | null>(null),
  lease_owner: patchable<string | null>(null),
  lease_expires_at: patchable<number | null>(null),
  created_at: fixed<string>(),
  started_at: patchable<string | null>(null),
  finished_at: patchable<string | null>(null),
  updated_at: patchable<string>(),
});

export type RunRow = RowOf<typeof runColumns>;
export type NewRunRow = InsertOf<typeof runColumns>;
export type RunPatch = PatchOf<typeof runColumns>;
