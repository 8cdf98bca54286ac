import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../package-root.js';
import type { ConsentSection } from '../tools/tool-consent.js';
import { escapeHtml } from '../../text/escape-html.js';

/** What the consent page shows for one sign-in. */
export interface ConsentView {
  clientName: string;
  redirectUri: string;
  /** Where the page's form posts (the authorization endpoint). */
  action: string;
  /** The sign-in's handle: a secret only this page holds. */
  request: string;
  userCode: string;
  expiresAt: string;
  /** Why the page is shown again (a refused key, a code not approved yet), or null. */
  notice: string | null;
}

/**
 * The pages of the authorization endpoint, plain HTML from `templates/mcp-server/` with every value HTML-escaped: the
 * consent page (what the grant lets the client do, an API key field, the one-time code for `errand mcp approve`,
 * Allow and Deny), and a page for a message when there is nowhere safe to send the browser back to.
 */
export class ConsentPages {
  private readonly consent: string;
  private readonly message: string;
  /** The capabilities' HTML, the same for every sign-in: made once. */
  private readonly capabilities: string;

  /** `capabilities` are what the MCP tool registry offers (`McpToolRegistry.consent()`). */
  constructor(capabilities: readonly ConsentSection[], templatesDir: string = join(packageRoot(), 'templates', 'mcp-server')) {
    this.consent = readFileSync(join(templatesDir, 'consent.html'), 'utf8');
    this.message = readFileSync(join(templatesDir, 'message.html'), 'utf8');
    this.capabilities = capabilities.map(sectionHtml).join('\n');
  }

  consentPage(view: ConsentView): string {
    return fill(this.consent, {
      client_name: escapeHtml(view.clientName),
      redirect_uri: escapeHtml(view.redirectUri),
      action: escapeHtml(view.action),
      request: escapeHtml(view.request),
      user_code: escapeHtml(view.userCode),
      expires_at: escapeHtml(view.expiresAt),
      notice: view.notice === null ? '' : `<p class="notice" role="alert">${escapeHtml(view.notice)}</p>`,
      capabilities: this.capabilities,
    });
  }

  messagePage(title: string, message: string): string {
    return fill(this.message, { title: escapeHtml(title), message: escapeHtml(message) });
  }
}

function sectionHtml(section: ConsentSection): string {
  const items = section.items.map((i) => `  <li data-tool="${escapeHtml(i.tool)}">${escapeHtml(i.grants)}</li>`).join('\n');
  return `<h2 class="group-${escapeHtml(section.group)}">${escapeHtml(section.heading)}</h2>\n<ul>\n${items}\n</ul>`;
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => values[name] ?? whole);
}
