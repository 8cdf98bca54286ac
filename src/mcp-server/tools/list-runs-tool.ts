import type { RunsService } from '../../runs/runs-service.js';
import type { McpTool } from './mcp-tool.js';
import { pageProperties } from './page-properties.js';

export function listRunsTool(deps: { runs: RunsService }): McpTool<{ job_id?: string; limit?: number; cursor?: string }> {
  return {
    name: 'list_runs',
    title: 'List runs',
    description: [
      'Lists the organisation\'s runs, newest first, as task envelopes (status, result, usage, ...), optionally only',
      'those of one job. Answers {data, has_more, next_cursor}; pass next_cursor as cursor for the next page.',
    ].join(' '),
    consent: { group: 'read', grants: 'list the organisation\'s runs' },
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      properties: {
        job_id: { type: 'string', minLength: 1, maxLength: 128, description: 'Only the runs of this job_ id.' },
        ...pageProperties('run'),
      },
    },
    annotations: { title: 'List runs', readOnlyHint: true, openWorldHint: false },
    call: (input, ctx) => deps.runs.list(ctx.principal.orgId, { limit: input.limit ?? 20, ...(input.cursor === undefined ? {} : { cursor: input.cursor }), ...(input.job_id === undefined ? {} : { job_id: input.job_id }) }),
  };
}
