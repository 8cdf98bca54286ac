import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../package-root.js';
import { escapeHtml } from '../../text/escape-html.js';

/** A page of the hosted connect flow, and the HTTP status it is answered with. */
export interface ConnectPage {
  status: number;
  html: string;
  /** Whether it has a form (the start page's button). */
  hasForm: boolean;
}

/**
 * The hosted connect pages, plain HTML from `templates/connect/` (no script: they work with any browser, screen
 * reader or keyboard). `{{name}}` is replaced by an HTML-escaped value, `{{{content}}}` by a page in the layout.
 */
export class ConnectPages {
  private readonly templates: Record<'layout' | 'start' | 'done' | 'problem', string>;

  constructor(dir: string = join(packageRoot(), 'templates', 'connect')) {
    const read = (name: string): string => readFileSync(join(dir, `${name}.html`), 'utf8');
    this.templates = { layout: read('layout'), start: read('start'), done: read('done'), problem: read('problem') };
  }

  start(v: { provider: string; connection: string; action: string; expires: string }): ConnectPage {
    return { status: 200, html: this.page(`Connect ${v.provider}`, this.fill(this.templates.start, v)), hasForm: true };
  }

  done(v: { provider: string; connection: string }): ConnectPage {
    return { status: 200, html: this.page('Connected', this.fill(this.templates.done, v)), hasForm: false };
  }

  problem(status: number, title: string, message: string): ConnectPage {
    return { status, html: this.page(title, this.fill(this.templates.problem, { title, message })), hasForm: false };
  }

  private page(title: string, content: string): string {
    return this.fill(this.templates.layout, { title }).replace('{{{content}}}', () => content);
  }

  private fill(template: string, values: Record<string, string>): string {
    return template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => (name in values ? escapeHtml(values[name]!) : whole));
  }
}
