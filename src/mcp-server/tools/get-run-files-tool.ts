import type { RunFilesService } from '../../run-files/run-files-service.js';
import type { McpTool } from './mcp-tool.js';

/** A run's files with their download links (issue 23, item 2): what GET /v1/runs/{id}/files answers. */
export function getRunFilesTool(deps: { runFiles: RunFilesService }): McpTool<{ task_id: string }> {
  return {
    name: 'get_run_files',
    title: "Get a run's files",
    description: [
      "Lists the files a run returned: what its browser downloaded and what its code wrote under /workspace/out/, kept when the run ended",
      '(a failed run\'s too; none while it runs). Each has a name, size in bytes, sha256, content_type, and a signed url that downloads it',
      'without an API key until expires_at; give the url to the person, or fetch it. Answers {data: [...]}; an empty list when there are none.',
    ].join(' '),
    consent: { group: 'read', grants: "read any run of the organisation's files, and links that download them" },
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['task_id'],
      properties: { task_id: { type: 'string', minLength: 1, maxLength: 128, description: "The run's task_id (run_...)." } },
    },
    annotations: { title: "Get a run's files", readOnlyHint: true, openWorldHint: false },
    call: (input, ctx) => deps.runFiles.list(ctx.principal.orgId, input.task_id),
  };
}
