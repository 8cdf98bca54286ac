import type { ProjectsService } from '../projects/projects-service.js';
import type { Resources } from '../resources.js';
import type { UserSchemas } from '../runs/user-schemas.js';
import type { Subsystem } from '../subsystem.js';
import { JobsService, type JobsServiceOptions } from './jobs-service.js';

export function jobsSubsystem(deps: JobsServiceOptions & { resources: Resources; projects: ProjectsService; schemas: UserSchemas }): Subsystem<{ jobs: JobsService }> {
  const { resources, projects, schemas, ...options } = deps;
  return { name: 'jobs', services: { jobs: new JobsService(resources, projects, schemas, options) } };
}
