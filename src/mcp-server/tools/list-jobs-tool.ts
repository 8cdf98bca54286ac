import type { JobsService } from '../../jobs/jobs-service.js';
import type { McpTool } from './mcp-tool.js';
import { pageProperties } from './page-properties.js';

export function listJobsTool(deps: { jobs: JobsService }): McpTool<{ project_id?: string; limit?: number; cursor?: string }> {
  return {
    name: 'list_jobs',
    title: 'List jobs',
    description: [
      'Lists the organisation\'s jobs (saved task templates), newest first, with their prompt, model, input_schema',
      '(the inputs run_job needs), output_schema and schedule. Answers {data, has_more, next_cursor}; pass',
      'next_cursor as cursor for the next page.',
    ].join(' '),
    consent: { group: 'read', grants: 'list the organisation\'s jobs, with their prompts and schedules' },
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      properties: {
        project_id: { type: 'string', minLength: 1, maxLength: 128, description: 'Only the jobs of this proj_ id.' },
        ...pageProperties('job'),
      },
    },
    annotations: { title: 'List jobs', readOnlyHint: true, openWorldHint: false },
    call: (input, ctx) =>
      deps.jobs.list(ctx.principal.orgId, { limit: input.limit ?? 20, ...(input.cursor === undefined ? {} : { cursor: input.cursor }), ...(input.project_id === undefined ? {} : { project_id: input.project_id }) }),
  };
}
