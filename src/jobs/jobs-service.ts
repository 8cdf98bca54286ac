import { isoTime } from '../clock.js';
import { DEFAULT_MODEL, type ModelAlias } from '../vocabulary/models.js';
import { InvalidRequestError, NotFoundError } from '../errors.js';
import type { EventAnnouncer } from '../event-log/event-announcer.js';
import { pageQuery, toListResponse, type ListResponse } from '../pagination.js';
import type { ProjectsService } from '../projects/projects-service.js';
import type { Resources } from '../resources.js';
import { checkActionSpace } from '../runs/action-space-check.js';
import { checkInputs } from '../runs/input-check.js';
import type { UserSchemas } from '../runs/user-schemas.js';
import { validateSchedule, type Schedule } from '../schedules/schedule-schema.js';
import { fromJson, toJson } from '../store/json-columns.js';
import type { JobRow } from '../store/jobs-store.js';
import type { CreateJobBody, JobListQuery, UpdateJobBody } from './job-schemas.js';
import { DEFAULT_ACTION_SPACE, type ActionSpace } from '../vocabulary/action-spaces.js';

export interface Job {
  id: string;
  object: 'job';
  project_id: string;
  name: string;
  description: string | null;
  prompt: string;
  model: ModelAlias;
  input_schema: Record<string, unknown> | null;
  output_schema: Record<string, unknown> | null;
  connections: string[];
  timeout_s: number | null;
  max_cost_usd: number | null;
  human_timeout_s: number | null;
  human_email: string | null;
  require_approval: boolean;
  schedule: Schedule | null;
  recording: boolean;
  proxy: string | null;
  replay: 'auto' | 'off';
  sandbox_label: string | null;
  profile: string | null;
  profile_mode: 'read' | 'read_write';
  save_profile: string | null;
  action_space: ActionSpace;
  created_at: string;
  updated_at: string;
}

/** Async checks the service cannot do alone (the webhook target guard), and who announces a paused schedule. */
export interface JobsServiceOptions {
  checkCallbackUrl: (url: string, param: string) => Promise<void>;
  announcer: EventAnnouncer;
  /** Refuses a sandbox host label no host has (400 unknown_sandbox_label; issue 26). */
  checkSandboxLabel: (label: string) => void;
}

export class JobsService {
  constructor(
    private readonly r: Pick<Resources, 'store' | 'clock' | 'ids' | 'events' | 'config'>,
    private readonly projects: ProjectsService,
    private readonly schemas: UserSchemas,
    private readonly options: JobsServiceOptions,
  ) {}

  list(orgId: string, q: JobListQuery): ListResponse<Job> {
    return toListResponse(this.r.store.jobs.list(orgId, { ...pageQuery(q), projectId: q.project_id ?? null }), toJob);
  }

  get(orgId: string, id: string): Job {
    return toJob(this.row(orgId, id));
  }

  row(orgId: string, id: string): JobRow {
    const row = this.r.store.jobs.get(orgId, id);
    if (!row) throw new NotFoundError('job', id);
    return row;
  }

  async create(orgId: string, body: CreateJobBody): Promise<Job> {
    this.projects.row(orgId, body.project_id, 'project_id');
    checkActionSpace(this.r.config, body.model ?? DEFAULT_MODEL, body.action_space ?? DEFAULT_ACTION_SPACE);
    await this.check(body);
    if (body.schedule) await this.checkScheduleInputs({ prompt: body.prompt, inputSchema: body.input_schema ?? null }, body.schedule);
    const now = isoTime(this.r.clock.now());
    const row: JobRow = {
      id: this.r.ids('job'),
      org_id: orgId,
      project_id: body.project_id,
      name: body.name,
      description: body.description ?? null,
      prompt: body.prompt,
      model: body.model ?? DEFAULT_MODEL,
      input_schema: toJson(body.input_schema),
      output_schema: toJson(body.output_schema),
      connections: toJson(body.connections ?? []),
      timeout_s: body.timeout_s ?? null,
      max_cost_usd: body.max_cost_usd ?? null,
      human_timeout_s: body.human_timeout_s ?? null,
      human_email: body.human_email ?? null,
      require_approval: body.require_approval === true ? 1 : 0,
      schedule: toJson(body.schedule && storedSchedule(body.schedule)),
      recording: body.recording === false ? 0 : 1,
      proxy: body.proxy ?? null,
      replay: body.replay ?? 'off',
      sandbox_label: body.sandbox_label ?? null,
      profile: body.profile ?? null,
      profile_mode: body.profile_mode ?? 'read_write',
      save_profile: body.save_profile ?? null,
      action_space: body.action_space ?? DEFAULT_ACTION_SPACE,
      created_at: now,
      updated_at: now,
    };
    this.r.store.jobs.insert(row);
    if (row.schedule !== null) this.r.events.emit('wake.jobs_changed', { orgId });
    return toJob(row);
  }

  async update(orgId: string, id: string, body: UpdateJobBody): Promise<Job> {
    const before = this.row(orgId, id);
    if (body.model !== undefined || body.action_space !== undefined) checkActionSpace(this.r.config, body.model ?? (before.model as ModelAlias), body.action_space ?? before.action_space);
    await this.check(body);
    const after = {
      prompt: body.prompt ?? before.prompt,
      inputSchema: body.input_schema !== undefined ? body.input_schema : fromJson<Record<string, unknown>>(before.input_schema),
    };
    if (body.schedule) await this.checkScheduleInputs(after, body.schedule);
    const paused = body.schedule === undefined && (body.prompt !== undefined || body.input_schema !== undefined) ? await this.pauseIfInvalid(before, after) : null;
    const changes: Partial<JobRow> & { updated_at: string } = { updated_at: isoTime(this.r.clock.now()) };
    if (body.name !== undefined) changes.name = body.name;
    if (body.description !== undefined) changes.description = body.description;
    if (body.prompt !== undefined) changes.prompt = body.prompt;
    if (body.model !== undefined) changes.model = body.model;
    if (body.input_schema !== undefined) changes.input_schema = toJson(body.input_schema);
    if (body.output_schema !== undefined) changes.output_schema = toJson(body.output_schema);
    if (body.connections !== undefined) changes.connections = toJson(body.connections ?? []);
    if (body.timeout_s !== undefined) changes.timeout_s = body.timeout_s;
    if (body.max_cost_usd !== undefined) changes.max_cost_usd = body.max_cost_usd;
    if (body.recording !== undefined) changes.recording = body.recording ? 1 : 0;
    if (body.proxy !== undefined) changes.proxy = body.proxy;
    if (body.replay !== undefined) changes.replay = body.replay;
    if (body.sandbox_label !== undefined) changes.sandbox_label = body.sandbox_label;
    if (body.profile !== undefined) changes.profile = body.profile;
    if (body.profile_mode !== undefined) changes.profile_mode = body.profile_mode;
    if (body.save_profile !== undefined) changes.save_profile = body.save_profile;
    if (body.action_space !== undefined) changes.action_space = body.action_space;
    if (body.human_timeout_s !== undefined) changes.human_timeout_s = body.human_timeout_s;
    if (body.human_email !== undefined) changes.human_email = body.human_email;
    if (body.require_approval !== undefined) changes.require_approval = body.require_approval ? 1 : 0;
    if (body.schedule !== undefined) changes.schedule = toJson(body.schedule && storedSchedule(body.schedule));
    if (paused !== null) changes.schedule = JSON.stringify(paused);
    // A recipe replays the task it was recorded for: another task (prompt, inputs, result) must be done by the agent.
    const taskChanged =
      (changes.prompt !== undefined && changes.prompt !== before.prompt) ||
      (changes.input_schema !== undefined && changes.input_schema !== before.input_schema) ||
      (changes.output_schema !== undefined && changes.output_schema !== before.output_schema);
    this.r.store.transaction((uow) => {
      this.r.store.jobs.update(orgId, id, changes);
      if (taskChanged) this.r.store.recipes.deleteAll(id);
      if (paused !== null) {
        this.options.announcer.announce(uow, { type: 'schedule.paused', orgId, data: { job_id: id, reason: paused.paused_reason } });
      }
    });
    if (body.schedule !== undefined || before.schedule !== null) this.r.events.emit('wake.jobs_changed', { orgId });
    return this.get(orgId, id);
  }

  /** A schedule being set must have inputs a run of the job accepts: 400 like a run, naming `schedule.inputs.<name>`. */
  private async checkScheduleInputs(job: { prompt: string; inputSchema: Record<string, unknown> | null }, schedule: Schedule): Promise<void> {
    await checkInputs(this.schemas, { prompt: job.prompt, inputSchema: job.inputSchema, inputs: schedule.inputs ?? {} }, 'schedule.inputs');
  }

  /**
   * The job's active schedule, paused with the reason, when a change of its prompt or input_schema leaves the
   * schedule's inputs unacceptable (every firing would be refused); null when the schedule is fine, paused or absent.
   */
  private async pauseIfInvalid(before: JobRow, after: { prompt: string; inputSchema: Record<string, unknown> | null }): Promise<(Schedule & { paused_reason: string }) | null> {
    const schedule = fromJson<Schedule>(before.schedule);
    if (schedule === null || schedule.enabled === false) return null;
    try {
      await this.checkScheduleInputs(after, schedule);
      return null;
    } catch (err) {
      if (!(err instanceof InvalidRequestError)) throw err;
      return { ...schedule, enabled: false, paused_reason: `the job changed and the schedule's inputs no longer pass: ${err.message}` };
    }
  }

  delete(orgId: string, id: string): { id: string; object: 'job'; deleted: true } {
    const row = this.row(orgId, id);
    this.r.store.jobs.delete(orgId, id);
    if (row.schedule !== null) this.r.events.emit('wake.jobs_changed', { orgId });
    return { id, object: 'job', deleted: true };
  }

  /** Schemas must compile and a schedule must be valid before anything is stored. */
  private async check(body: CreateJobBody | UpdateJobBody): Promise<void> {
    if (typeof body.sandbox_label === 'string') this.options.checkSandboxLabel(body.sandbox_label);
    if (body.input_schema) await this.schemas.check(body.input_schema, 'input_schema');
    if (body.output_schema) await this.schemas.check(body.output_schema, 'output_schema');
    if (body.schedule) {
      validateSchedule(body.schedule);
      if (body.schedule.callback_url) await this.options.checkCallbackUrl(body.schedule.callback_url, 'schedule.callback_url');
    }
  }
}

export function toJob(row: JobRow): Job {
  return {
    id: row.id,
    object: 'job',
    project_id: row.project_id,
    name: row.name,
    description: row.description,
    prompt: row.prompt,
    model: row.model as ModelAlias,
    input_schema: fromJson(row.input_schema),
    output_schema: fromJson(row.output_schema),
    connections: fromJson<string[]>(row.connections) ?? [],
    timeout_s: row.timeout_s,
    max_cost_usd: row.max_cost_usd,
    human_timeout_s: row.human_timeout_s,
    human_email: row.human_email,
    require_approval: row.require_approval === 1,
    schedule: scheduleOf(row.schedule),
    recording: row.recording === 1,
    proxy: row.proxy,
    replay: row.replay,
    sandbox_label: row.sandbox_label,
    profile: row.profile,
    profile_mode: row.profile_mode,
    save_profile: row.save_profile,
    action_space: row.action_space,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** A schedule as a request set it: `paused_reason` belongs to the daemon, so whatever was sent is dropped. */
function storedSchedule(schedule: Schedule): Schedule {
  const { paused_reason: _ignored, ...rest } = schedule;
  return rest;
}

/** A stored schedule as the API answers it: `paused_reason` is always there, null unless the daemon paused it. */
function scheduleOf(json: string | null): Schedule | null {
  const schedule = fromJson<Schedule>(json);
  return schedule === null ? null : { ...schedule, paused_reason: schedule.paused_reason ?? null };
}
