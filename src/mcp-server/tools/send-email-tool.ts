import { sendEmailBodySchema, type SendEmailBody } from '../../mail/email-schemas.js';
import type { EmailRecord } from '../../mail/outbound/email-record.js';
import type { SendService } from '../../mail/outbound/send-service.js';
import type { SentEmails } from '../../mail/outbound/sent-emails.js';
import type { McpTool } from './mcp-tool.js';

const p = sendEmailBodySchema.properties;

/**
 * POST /v1/emails for an assistant: the same body, checks and refusals, from the grant's organisation's identity.
 * It answers the email record (GET /v1/emails/{id}) rather than the 202 body: the record holds everything the 202
 * body does, and a model that follows the delivery with get_email then reads one shape throughout.
 */
export function sendEmailTool(deps: { emails: SendService; sentEmails: SentEmails }): McpTool<SendEmailBody> {
  return {
    name: 'send_email',
    title: 'Send an email',
    description: [
      'Sends a real email, from the organisation\'s email identity (its Errand address, or its own verified domain),',
      'to real people: once sent it cannot be recalled, so send only what the person asked for, to the addresses they',
      'gave. Give to, subject and a body (text, body_markdown or body_html); cc and bcc are optional.',
      'Always pass a client_id unique to this message: calling again with the same client_id and the same arguments',
      'answers the first send and sends nothing, so retrying after a timeout or an error is safe (the same client_id',
      'with different arguments is refused with idempotency_key_reused).',
      'Answers the email record: id, status (sent: queued for delivery; scheduled: waits for send_at;',
      'pending_approval: the organisation has an operator approve each send, and it goes out once approved;',
      'rejected), recipients with the delivery status of each (queued, delivered, deferred, bounced, ...; follow it',
      'with get_email), and suppressed: recipients left out because mail to them bounced or was reported as spam.',
      'Refused with email_not_configured when the installation or the organisation has no email set up, and with',
      'send_cap_reached, too_many_recipients or all_recipients_suppressed as the message says.',
    ].join(' '),
    consent: { group: 'send_mail', grants: 'send email from the organisation\'s address to any recipient' },
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['to', 'subject'],
      properties: {
        to: { ...p.to, description: 'One address, or a list: ONE message whose recipients see each other\'s addresses.' },
        cc: { ...p.cc, description: 'Addresses copied openly.' },
        bcc: { ...p.bcc, description: 'Addresses copied without the others seeing them.' },
        subject: { ...p.subject, description: 'One line.' },
        text: { ...p.text, description: 'The body as plain text. Give text, body_markdown or body_html (or several).' },
        body_markdown: { ...p.body_markdown, description: 'The body as Markdown, rendered to email-safe HTML; the Markdown itself is the plain text part when text is not given.' },
        body_html: { ...p.body_html, description: 'The body as ready HTML; takes precedence over body_markdown.' },
        from_name: { ...p.from_name, description: 'The sender\'s display name; by default the identity\'s or the organisation\'s name.' },
        reply_to: { ...p.reply_to, description: 'Where replies should go instead; replies are then not threaded back to this message. Rarely needed.' },
        client_id: {
          ...p.client_id,
          description: 'A string unique to this message (e.g. "invoice-2041-reminder"): a repeat with the same client_id answers the first send and sends nothing.',
        },
        metadata: { ...p.metadata, description: 'Any JSON object, kept with the message and echoed on the webhook of a reply to it.' },
        send_at: { ...p.send_at, description: 'Send at this time (RFC 3339, e.g. 2026-12-01T09:00:00Z) instead of now; status is scheduled until then.' },
      },
    },
    annotations: { title: 'Send an email', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    async call(input, ctx): Promise<EmailRecord> {
      const { orgId, keyId } = ctx.principal;
      const metadataJson = input.metadata === undefined ? null : JSON.stringify(input.metadata);
      const sent = await deps.emails.send({ orgId, keyId, inboxId: null, body: input, metadataJson });
      return deps.sentEmails.get(orgId, sent.body.message_id);
    },
  };
}
