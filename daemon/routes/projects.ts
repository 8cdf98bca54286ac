import { projectRouteSchemas as s } from '../../src/projects/project-schemas.js';
import type { ProjectsService } from '../../src/projects/projects-service.js';
import { principalOf } from '../plugins/auth.js';
import type { RoutePlugin } from './route-plugin.js';

const tags = ['Projects'];

export const projectRoutes: RoutePlugin<{ projects: ProjectsService }> = async (app, { projects }) => {
  app.get('/projects', { schema: { ...s.list, tags, summary: 'List projects' } }, (req) =>
    projects.list(principalOf(req).orgId, req.query),
  );
  app.post('/projects', { schema: { ...s.create, tags, summary: 'Create a project' } }, async (req, reply) =>
    reply.status(201).send(projects.create(principalOf(req).orgId, req.body)),
  );
  app.get('/projects/:id', { schema: { ...s.get, tags, summary: 'Get a project' } }, (req) =>
    projects.get(principalOf(req).orgId, req.params.id),
  );
  app.patch('/projects/:id', { schema: { ...s.update, tags, summary: 'Update a project' } }, (req) =>
    projects.update(principalOf(req).orgId, req.params.id, req.body),
  );
  app.delete(
    '/projects/:id',
    { schema: { ...s.delete, tags, summary: 'Delete a project with its jobs and their schedules; its runs stay readable' } },
    (req) => projects.delete(principalOf(req).orgId, req.params.id),
  );
};
