import { isoTime } from '../clock.js';
import { ConflictError, NotFoundError } from '../errors.js';
import { pageQuery, toListResponse, type ListQuery, type ListResponse } from '../pagination.js';
import type { Resources } from '../resources.js';
import type { ProjectRow } from '../store/projects-store.js';
import type { CreateProjectBody, UpdateProjectBody } from './project-schemas.js';

export interface Project {
  id: string;
  object: 'project';
  name: string;
  description: string | null;
  is_default: boolean;
  created_at: string;
  updated_at: string;
}

export class ProjectsService {
  constructor(
    private readonly r: Pick<Resources, 'store' | 'clock' | 'ids' | 'events'>,
  ) {}

  list(orgId: string, q: ListQuery): ListResponse<Project> {
    return toListResponse(this.r.store.projects.list(orgId, pageQuery(q)), toProject);
  }

  get(orgId: string, id: string): Project {
    return toProject(this.row(orgId, id));
  }

  row(orgId: string, id: string, param?: string): ProjectRow {
    const row = this.r.store.projects.get(orgId, id);
    if (!row) throw new NotFoundError('project', id, param);
    return row;
  }

  create(orgId: string, body: CreateProjectBody): Project {
    const now = isoTime(this.r.clock.now());
    const row: ProjectRow = {
      id: this.r.ids('proj'),
      org_id: orgId,
      name: body.name,
      description: body.description ?? null,
      is_default: 0,
      created_at: now,
      updated_at: now,
    };
    this.r.store.projects.insert(row);
    return toProject(row);
  }

  update(orgId: string, id: string, body: UpdateProjectBody): Project {
    this.row(orgId, id);
    this.r.store.projects.update(orgId, id, { ...body, updated_at: isoTime(this.r.clock.now()) });
    return this.get(orgId, id);
  }

  /** Deletes the project and, by cascade, its jobs and their schedules. Runs stay readable. */
  delete(orgId: string, id: string): { id: string; object: 'project'; deleted: true } {
    const row = this.row(orgId, id);
    if (row.is_default) {
      throw new ConflictError('project_not_deletable', 'The "API Runs" project is where runs without a project_id go; it cannot be deleted');
    }
    this.r.store.projects.delete(orgId, id);
    // Its jobs went with it: their schedules must stop.
    this.r.events.emit('wake.jobs_changed', { orgId });
    return { id, object: 'project', deleted: true };
  }
}

function toProject(row: ProjectRow): Project {
  return {
    id: row.id,
    object: 'project',
    name: row.name,
    description: row.description,
    is_default: row.is_default === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
