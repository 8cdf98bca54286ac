import type { SentEmails } from '../../mail/outbound/sent-emails.js';
import type { McpTool } from './mcp-tool.js';
import { pageProperties } from './page-properties.js';

export function listEmailsTool(deps: { sentEmails: SentEmails }): McpTool<{ limit?: number; cursor?: string }> {
  return {
    name: 'list_emails',
    title: 'List sent emails',
    description: [
      'Lists the emails the organisation sent, newest first, each as get_email answers it (status, subject,',
      'recipients with their delivery status, ...). Answers {data, has_more, next_cursor}; pass next_cursor as',
      'cursor for the next page.',
    ].join(' '),
    consent: { group: 'read', grants: 'list the emails the organisation sent' },
    inputSchema: { type: 'object', additionalProperties: false, properties: pageProperties('msg') },
    annotations: { title: 'List sent emails', readOnlyHint: true, openWorldHint: false },
    call: (input, ctx) => deps.sentEmails.list(ctx.principal.orgId, { limit: input.limit ?? 20, ...(input.cursor === undefined ? {} : { cursor: input.cursor }) }),
  };
}
