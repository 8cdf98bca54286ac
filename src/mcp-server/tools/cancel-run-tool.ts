import type { RunsService } from '../../runs/runs-service.js';
import type { McpTool } from './mcp-tool.js';

export function cancelRunTool(deps: { runs: RunsService }): McpTool<{ task_id: string }> {
  return {
    name: 'cancel_run',
    title: 'Cancel a run',
    description: [
      'Stops a queued or running run and answers its envelope with status cancelled; what it spent so far stays billed.',
      'Cancelling a cancelled run answers it again; a run that already succeeded or failed cannot be cancelled',
      '(the error says so).',
    ].join(' '),
    consent: { group: 'act', grants: 'cancel the organisation\'s queued and running runs' },
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['task_id'],
      properties: { task_id: { type: 'string', minLength: 1, maxLength: 128, description: 'The run\'s task_id (run_...).' } },
    },
    annotations: { title: 'Cancel a run', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    call: (input, ctx) => deps.runs.cancel(ctx.principal.orgId, input.task_id),
  };
}
