import { runFilesMember } from '../files/file-schemas.js';
import type { Validated } from '../http-schemas/validated.js';
import { fromJson, toJson } from '../store/json-columns.js';
import type { JobRow } from '../store/jobs-store.js';
import type { ProfileAccess } from '../store/profiles-table.js';
import type { NewRunRow, RunRow } from '../store/runs-table.js';
import { actionSpaceSchema, DEFAULT_ACTION_SPACE, type ActionSpace } from '../vocabulary/action-spaces.js';

/**
 * A run's options, said once: the members POST /v1/runs and POST /v1/jobs/{id}/runs both take (their schema
 * fragment, which validation, the OpenAPI document and the SDKs' types derive from), how a request's values fall back
 * on its job's and the daemon's, and the run row's columns they fill. docs/architecture.md, Adding a run option, says
 * what else a new one needs.
 */

export const connectionNames = {
  type: 'array',
  maxItems: 50,
  uniqueItems: true,
  items: { type: 'string', minLength: 1, maxLength: 200 },
  description: 'Names of connections the run needs; a missing, disabled or unauthenticated one fails the run with auth_required.',
} as const;
export const proxyName = {
  type: 'string',
  minLength: 1,
  maxLength: 200,
  description:
    "Name of a proxy connection the run's browser and code leave through (a run's wins over its job's; default: the operator's sandbox.egress_proxy, if set). A missing, disabled or non-proxy one fails the run with auth_required.",
} as const;
export const sandboxLabel = {
  type: 'string',
  minLength: 1,
  maxLength: 63,
  description:
    "A label of the sandbox hosts (sandbox.hosts) the run must run on (a run's wins over its job's); a label no host has is 400 unknown_sandbox_label. Default: any host.",
} as const;
export const recording = {
  type: 'boolean',
  description: 'false: no recording (trace and video) of the browser; default true, or the job\'s. recording.enabled off turns it off for every run.',
} as const;
export const maxCostUsd = {
  type: 'number',
  exclusiveMinimum: 0,
  maximum: 100_000,
  description:
    "The most the run may cost, in USD (usage.cost_usd): the engine never starts a model call whose worst case would pass it, and the run fails with failure_code budget_exceeded. A run's wins over its job's, a job's over its API key's default. Less than the run's first model call could cost is 400 max_cost_too_low.",
} as const;
export const timeoutS = { type: 'integer', minimum: 1, maximum: 86_400, description: 'Longest the run may execute, in seconds.' } as const;
export const humanTimeoutS = {
  type: 'integer',
  minimum: 1,
  maximum: 604_800,
  description: 'Longest the agent waits for a person it asked (request_human); then the run fails. Default: human.timeout_s.',
} as const;
export const humanEmail = { type: 'string', format: 'email', maxLength: 320, description: 'Who is emailed when the agent asks for a person (needs email configured); a reply answers.' } as const;
export const requireApproval = {
  type: 'boolean',
  description: 'A form is submitted only after a person approved it: the agent must ask with request_human, kind approve.',
} as const;

/** A profile's name: letters, digits, `.`, `_` and `-`, as people name a site's account (`acme-portal`). */
export const PROFILE_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$';
export const profileName = {
  type: 'string',
  pattern: PROFILE_NAME_PATTERN,
  description:
    "A profile (saved login) the run's browser starts with: its cookies and each site's storage (docs/api.md, Profiles). A run's wins over its job's. With profile_mode read, a profile that does not exist fails the run with auth_required; with read_write the run starts signed out and saves it when it succeeds.",
} as const;
export const profileMode = {
  type: 'string',
  enum: ['read', 'read_write'],
  description:
    "read_write (the default): a run that succeeds writes its browser's state back to its profile, so that it stays signed in; one run at a time writes a profile, and another read_write run meanwhile only reads it (with a warning). read: the profile is only loaded; runs side by side should use it.",
} as const;
export const saveProfile = {
  type: 'string',
  pattern: PROFILE_NAME_PATTERN,
  description: "When the run succeeds, its browser's state is saved as this profile (made if it does not exist, replaced if it does). A run's wins over its job's.",
} as const;

/** The members both run requests take. */
export const runOptionMembers = {
  inputs: { type: 'object', additionalProperties: true, description: 'Values for the prompt\'s {{placeholders}}.' },
  output_schema: { type: 'object', additionalProperties: true, description: 'JSON Schema the result must satisfy.' },
  name: { type: 'string', minLength: 1, maxLength: 200 },
  callback_url: { type: 'string', format: 'uri', maxLength: 2048, description: 'https target of the signed completion webhook.' },
  idempotency_key: { type: 'string', minLength: 1, maxLength: 255, description: 'A replay within 24 h returns the original run.' },
  connections: connectionNames,
  files: runFilesMember,
  timeout_s: timeoutS,
  max_cost_usd: maxCostUsd,
  recording,
  human_timeout_s: humanTimeoutS,
  human_email: humanEmail,
  require_approval: requireApproval,
  proxy: proxyName,
  sandbox_label: sandboxLabel,
  profile: profileName,
  profile_mode: profileMode,
  save_profile: saveProfile,
  action_space: actionSpaceSchema,
} as const;

const runOptionsSchema = { type: 'object', properties: runOptionMembers } as const;

/** The run options a request gave (a validated body of either run request has these members). */
export type RunOptionsBody = Validated<typeof runOptionsSchema>;

/** Whom the agent's request_human asks, for how long, and whether a submission needs an approval. */
export interface HumanSettings {
  timeoutS: number | null;
  email: string | null;
  requireApproval: boolean;
}

/** A run's options once its request's values fell back on the defaults: what the run row keeps. */
export interface RunOptions {
  name: string | null;
  inputs: Record<string, unknown>;
  outputSchema: Record<string, unknown> | null;
  callbackUrl: string | null;
  connections: string[];
  /** Ids of the run's input files (`files`), in order: checked, and recorded with the run, in its unit of work. */
  inputFiles: string[];
  /** The proxy connection's name: the run's own, else its job's. */
  proxy: string | null;
  /** The sandbox host label it asks for: the run's own, else its job's. */
  sandboxLabel: string | null;
  timeoutS: number;
  /** The most the run may cost in USD: the run's own, else its job's, else its API key's default; null: no limit. */
  maxCostUsd: number | null;
  recording: boolean;
  human: HumanSettings;
  /** How the agent works a page: the run's own, else its job's (docs/api.md, Action spaces). */
  actionSpace: ActionSpace;
  profiles: ProfileSettings;
}

/** A run's saved login: the profile it starts with, whether it writes it back, and the one it saves to. */
export interface ProfileSettings {
  profile: string | null;
  mode: ProfileAccess;
  save: string | null;
}

/** What a request's options fall back on: its job's (each over the daemon's), or the daemon's for a run of a prompt. */
export type RunOptionDefaults = Omit<RunOptions, 'inputs' | 'callbackUrl' | 'inputFiles'>;

/** What every run falls back on last: the daemon's limits.run_timeout_s, and the caller's API key's max_run_cost_usd. */
export interface BaseRunDefaults {
  runTimeoutS: number;
  maxCostUsd: number | null;
}

/** The defaults of a run of a prompt: the daemon's and its key's. */
export function promptRunDefaults(base: BaseRunDefaults): RunOptionDefaults {
  return {
    name: null,
    outputSchema: null,
    connections: [],
    proxy: null,
    sandboxLabel: null,
    timeoutS: base.runTimeoutS,
    maxCostUsd: base.maxCostUsd,
    recording: true,
    human: { timeoutS: null, email: null, requireApproval: false },
    profiles: { profile: null, mode: 'read_write', save: null },
    actionSpace: DEFAULT_ACTION_SPACE,
  };
}

/** The defaults a job gives its runs, each over the daemon's and the key's. */
export function jobRunDefaults(job: JobRow, base: BaseRunDefaults): RunOptionDefaults {
  return {
    name: job.name,
    outputSchema: fromJson(job.output_schema),
    connections: fromJson<string[]>(job.connections) ?? [],
    proxy: job.proxy,
    sandboxLabel: job.sandbox_label,
    timeoutS: job.timeout_s ?? base.runTimeoutS,
    maxCostUsd: job.max_cost_usd ?? base.maxCostUsd,
    recording: job.recording === 1,
    human: { timeoutS: job.human_timeout_s, email: job.human_email, requireApproval: job.require_approval === 1 },
    profiles: { profile: job.profile, mode: job.profile_mode, save: job.save_profile },
    actionSpace: job.action_space,
  };
}

/** The options of a request over its defaults; a job's connections are kept, the request's are added to them. */
export function resolveRunOptions(body: RunOptionsBody, defaults: RunOptionDefaults): RunOptions {
  return {
    name: body.name ?? defaults.name,
    inputs: body.inputs ?? {},
    outputSchema: body.output_schema ?? defaults.outputSchema,
    callbackUrl: body.callback_url ?? null,
    connections: [...new Set([...defaults.connections, ...(body.connections ?? [])])],
    inputFiles: body.files ?? [],
    proxy: body.proxy ?? defaults.proxy,
    sandboxLabel: body.sandbox_label ?? defaults.sandboxLabel,
    timeoutS: body.timeout_s ?? defaults.timeoutS,
    maxCostUsd: body.max_cost_usd ?? defaults.maxCostUsd,
    recording: body.recording ?? defaults.recording,
    human: {
      timeoutS: body.human_timeout_s ?? defaults.human.timeoutS,
      email: body.human_email ?? defaults.human.email,
      requireApproval: body.require_approval ?? defaults.human.requireApproval,
    },
    profiles: {
      profile: body.profile ?? defaults.profiles.profile,
      mode: body.profile_mode ?? defaults.profiles.mode,
      save: body.save_profile ?? defaults.profiles.save,
    },
    actionSpace: body.action_space ?? defaults.actionSpace,
  };
}

/** The options a run was made with, from its row (a rerun asks for them again); its input files are kept apart. */
export function runOptionsOfRow(row: RunRow, inputFiles: string[]): RunOptions {
  return {
    name: row.name,
    inputs: fromJson<Record<string, unknown>>(row.inputs) ?? {},
    outputSchema: fromJson(row.output_schema),
    callbackUrl: row.callback_url,
    connections: fromJson<string[]>(row.connections) ?? [],
    inputFiles,
    proxy: row.proxy,
    sandboxLabel: row.sandbox_label,
    timeoutS: row.timeout_s,
    maxCostUsd: row.max_cost_usd,
    recording: row.recording === 1,
    human: { timeoutS: row.human_timeout_s, email: row.human_email, requireApproval: row.require_approval === 1 },
    profiles: { profile: row.profile, mode: row.profile_mode, save: row.save_profile },
    actionSpace: row.action_space,
  };
}

/** The run row's columns of its options (its input files have a table of their own). */
export function runOptionColumns(o: RunOptions): Pick<
  NewRunRow,
  'name' | 'inputs' | 'output_schema' | 'callback_url' | 'connections' | 'proxy' | 'sandbox_label' | 'timeout_s' | 'max_cost_usd' | 'recording' | 'human_timeout_s' | 'human_email' | 'require_approval' | 'profile' | 'profile_mode' | 'save_profile' | 'action_space'
> {
  return {
    name: o.name,
    inputs: JSON.stringify(o.inputs),
    output_schema: toJson(o.outputSchema),
    callback_url: o.callbackUrl,
    connections: JSON.stringify(o.connections),
    proxy: o.proxy,
    sandbox_label: o.sandboxLabel,
    timeout_s: o.timeoutS,
    max_cost_usd: o.maxCostUsd,
    recording: o.recording ? 1 : 0,
    human_timeout_s: o.human.timeoutS,
    human_email: o.human.email,
    require_approval: o.human.requireApproval ? 1 : 0,
    profile: o.profiles.profile,
    profile_mode: o.profiles.mode,
    save_profile: o.profiles.save,
    action_space: o.actionSpace,
  };
}

