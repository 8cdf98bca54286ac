import type { ActionSpace } from '../vocabulary/action-spaces.js';
import type { Db } from './database.js';
import type { ProfileAccess } from './profiles-table.js';
import { toPage, type Page, type PageQuery } from './page.js';
import { ColumnUpdater } from './updates.js';

/** JSON members (schemas, connections, schedule) are stored as JSON text. */
export interface JobRow {
  id: string;
  org_id: string;
  project_id: string;
  name: string;
  description: string | null;
  prompt: string;
  model: string;
  input_schema: string | null;
  output_schema: string | null;
  connections: string | null;
  timeout_s: number | null;
  /** The max_cost_usd of its runs that give none (migration 036); null: the key's default, if any. */
  max_cost_usd: number | null;
  human_timeout_s: number | null;
  human_email: string | null;
  require_approval: number;
  schedule: string | null;
  /** 1: its runs record the browser unless they say otherwise; 0: they do not. */
  recording: 0 | 1;
  /** The proxy connection its runs leave through unless they name their own; null: none named. */
  proxy: string | null;
  /** The sandbox host label its runs ask for unless they name their own (issue 26); null: any host. */
  sandbox_label: string | null;
  /** The profile (saved login) its runs start with unless they name their own; migration 037. */
  profile: string | null;
  /** Whether its runs write their profile back when they succeed, unless they say otherwise. */
  profile_mode: ProfileAccess;
  /** The profile its runs save their browser's state to when they succeed, unless they name their own. */
  save_profile: string | null;
  /** Whether its runs replay its recipe ('auto') or always run the agent ('off'); migration 029. */
  replay: 'auto' | 'off';
  /** How its runs' agent works a page unless a run names its own (migration 035). */
  action_space: ActionSpace;
  created_at: string;
  updated_at: string;
}

/** A job as inserted: what a person needs (issue 22, item 4) may be left out, as no one named. */
export type NewJobRow = Omit<JobRow, 'human_timeout_s' | 'human_email' | 'require_approval' | 'proxy' | 'replay' | 'sandbox_label' | 'max_cost_usd' | 'profile' | 'profile_mode' | 'save_profile' | 'action_space'> &
  Partial<Pick<JobRow, 'human_timeout_s' | 'human_email' | 'require_approval' | 'proxy' | 'replay' | 'sandbox_label' | 'max_cost_usd' | 'profile' | 'profile_mode' | 'save_profile' | 'action_space'>>;

type PageParams = { org_id: string; project_id: string | null; cursor: string | null; limit: number };

export const JOB_UPDATABLE = ['name', 'description', 'prompt', 'model', 'input_schema', 'output_schema', 'connections', 'timeout_s', 'max_cost_usd', 'human_timeout_s', 'human_email', 'require_approval', 'schedule', 'recording', 'proxy', 'replay', 'sandbox_label', 'profile', 'profile_mode', 'save_profile', 'action_space'] as const;

export class JobsStore {
  private readonly byId;
  private readonly pages;
  private readonly insertStmt;
  private readonly deleteStmt;
  private readonly scheduled;
  private readonly updater: ColumnUpdater;

  constructor(db: Db) {
    this.byId = db.prepare<{ id: string; org_id: string }, JobRow>('SELECT * FROM jobs WHERE id = @id AND org_id = @org_id');
    this.pages = {
      first: db.prepare<PageParams, JobRow>('SELECT * FROM jobs WHERE org_id = @org_id ORDER BY id DESC LIMIT @limit'),
      after: db.prepare<PageParams, JobRow>('SELECT * FROM jobs WHERE org_id = @org_id AND id < @cursor ORDER BY id DESC LIMIT @limit'),
      projectFirst: db.prepare<PageParams, JobRow>('SELECT * FROM jobs WHERE org_id = @org_id AND project_id = @project_id ORDER BY id DESC LIMIT @limit'),
      projectAfter: db.prepare<PageParams, JobRow>(
        'SELECT * FROM jobs WHERE org_id = @org_id AND project_id = @project_id AND id < @cursor ORDER BY id DESC LIMIT @limit',
      ),
    };
    this.insertStmt = db.prepare(
      `INSERT INTO jobs (id, org_id, project_id, name, description, prompt, model, input_schema, output_schema, connections, timeout_s, max_cost_usd, human_timeout_s, human_email, require_approval, schedule, recording, proxy, replay, sandbox_label, profile, profile_mode, save_profile, action_space, created_at, updated_at)
       VALUES (@id, @org_id, @project_id, @name, @description, @prompt, @model, @input_schema, @output_schema, @connections, @timeout_s, @max_cost_usd, @human_timeout_s, @human_email, @require_approval, @schedule, @recording, @proxy, @replay, @sandbox_label, @profile, @profile_mode, @save_profile, @action_space, @created_at, @updated_at)`,
    );
    this.deleteStmt = db.prepare<{ id: string; org_id: string }>('DELETE FROM jobs WHERE id = @id AND org_id = @org_id');
    this.scheduled = db.prepare<[], JobRow>('SELECT * FROM jobs WHERE schedule IS NOT NULL ORDER BY id');
    this.updater = new ColumnUpdater(db, 'jobs', new Set(JOB_UPDATABLE));
  }

  get(orgId: string, id: string): JobRow | undefined {
    return this.byId.get({ id, org_id: orgId });
  }

  list(orgId: string, q: PageQuery & { projectId: string | null }): Page<JobRow> {
    const { first, after, projectFirst, projectAfter } = this.pages;
    const stmt = q.projectId === null ? (q.cursor === null ? first : after) : q.cursor === null ? projectFirst : projectAfter;
    return toPage(stmt.all({ org_id: orgId, project_id: q.projectId, cursor: q.cursor, limit: q.limit + 1 }), q.limit);
  }

  /** Every job that carries a schedule, across organisations (for the scheduler). */
  listScheduled(): JobRow[] {
    return this.scheduled.all();
  }

  insert(row: NewJobRow): void {
    this.insertStmt.run({ human_timeout_s: null, human_email: null, require_approval: 0, proxy: null, replay: 'off', sandbox_label: null, max_cost_usd: null, profile: null, profile_mode: 'read_write', save_profile: null, action_space: 'dom', ...row });
  }

  update(orgId: string, id: string, changes: Partial<JobRow> & { updated_at: string }): boolean {
    return this.updater.update(id, orgId, changes);
  }

  delete(orgId: string, id: string): boolean {
    return this.deleteStmt.run({ id, org_id: orgId }).changes > 0;
  }
}
