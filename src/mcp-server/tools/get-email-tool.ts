import type { SentEmails } from '../../mail/outbound/sent-emails.js';
import type { McpTool } from './mcp-tool.js';

export function getEmailTool(deps: { sentEmails: SentEmails }): McpTool<{ email_id: string }> {
  return {
    name: 'get_email',
    title: 'Get a sent email',
    description: [
      'Answers one email the organisation sent (by send_email or the REST API) as it is recorded: status (sent,',
      'scheduled, pending_approval, rejected), from_address, subject, to, cc, bcc, reply_to, metadata, and recipients',
      'with the delivery status of each (queued, delivered, deferred: the receiving server asked to retry later,',
      'bounced, complained, failed, suppressed, rejected) and its detail. Poll it to follow a delivery; a few',
      'seconds between polls is plenty.',
    ].join(' '),
    consent: { group: 'read', grants: 'read an email the organisation sent, with its delivery to each recipient' },
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['email_id'],
      properties: { email_id: { type: 'string', minLength: 1, maxLength: 128, description: 'The email\'s id (msg_...), from send_email or list_emails.' } },
    },
    annotations: { title: 'Get a sent email', readOnlyHint: true, openWorldHint: false },
    call: (input, ctx) => deps.sentEmails.get(ctx.principal.orgId, input.email_id),
  };
}
