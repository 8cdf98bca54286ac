import type { SendService } from '../../mail/outbound/send-service.js';
import type { SentEmails } from '../../mail/outbound/sent-emails.js';
import { getEmailTool } from './get-email-tool.js';
import { listEmailsTool } from './list-emails-tool.js';
import type { McpTool } from './mcp-tool.js';
import { sendEmailTool } from './send-email-tool.js';

export interface EmailToolDeps {
  emails: SendService;
  sentEmails: SentEmails;
}

/**
 * The tools over sent email, in the order clients list them. They are offered whether or not the installation
 * sends mail, as the REST routes are: a send then answers email_not_configured, which tells the model why.
 * None answers a secret: the identity (whose webhook secret POST /v1/emails/identity answers) has no tool.
 */
export function emailTools(deps: EmailToolDeps): McpTool<any>[] {
  return [sendEmailTool(deps), getEmailTool(deps), listEmailsTool(deps)];
}
