import type { Resources } from '../resources.js';
import type { Subsystem } from '../subsystem.js';
import { ProjectsService } from './projects-service.js';

export function projectsSubsystem(resources: Resources): Subsystem<{ projects: ProjectsService }> {
  return { name: 'projects', services: { projects: new ProjectsService(resources) } };
}
