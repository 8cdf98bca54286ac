import type { RunsService } from '../../runs/runs-service.js';
import type { McpTool } from './mcp-tool.js';

export function getRunTool(deps: { runs: RunsService }): McpTool<{ task_id: string }> {
  return {
    name: 'get_run',
    title: 'Get a run',
    description: [
      'Answers the task envelope of a run started by run_task, run_job, a schedule or the REST API: its status',
      '(queued, running, succeeded, failed, cancelled), result, confidence, evidence, failure_reason and',
      'failure_detail, usage (tokens, duration, cost in USD) and progress (steps so far, last action).',
      'Poll it for a run that run_task answered before it ended; a few seconds between polls is plenty.',
    ].join(' '),
    consent: { group: 'read', grants: 'read any run of the organisation: its prompt, result, evidence, failure and cost' },
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['task_id'],
      properties: { task_id: { type: 'string', minLength: 1, maxLength: 128, description: 'The run\'s task_id (run_...).' } },
    },
    annotations: { title: 'Get a run', readOnlyHint: true, openWorldHint: false },
    call: (input, ctx) => deps.runs.get(ctx.principal.orgId, input.task_id),
  };
}
