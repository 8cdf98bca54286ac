import type { ProjectsService } from '../../projects/projects-service.js';
import type { McpTool } from './mcp-tool.js';
import { pageProperties } from './page-properties.js';

export function listProjectsTool(deps: { projects: ProjectsService }): McpTool<{ limit?: number; cursor?: string }> {
  return {
    name: 'list_projects',
    title: 'List projects',
    description: [
      'Lists the organisation\'s projects, newest first. Projects group jobs; the "API Runs" project (is_default) holds',
      'runs started without a project_id. Answers {data, has_more, next_cursor}; pass next_cursor as cursor for the next page.',
    ].join(' '),
    consent: { group: 'read', grants: 'list the organisation\'s projects' },
    inputSchema: { type: 'object', additionalProperties: false, properties: pageProperties('proj') },
    annotations: { title: 'List projects', readOnlyHint: true, openWorldHint: false },
    call: (input, ctx) => deps.projects.list(ctx.principal.orgId, { limit: input.limit ?? 20, ...(input.cursor === undefined ? {} : { cursor: input.cursor }) }),
  };
}
