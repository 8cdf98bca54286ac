import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../package-root.js';
import { escapeHtml } from '../text/escape-html.js';

/** A live view page and the HTTP status it is answered with. */
export interface LivePageHtml {
  status: number;
  html: string;
}

/**
 * The live view's page (`templates/live/`): HTML with no inline script, and its one script, served by the daemon
 * itself (no third-party code). `{{name}}` is replaced by an HTML-escaped value.
 */
export class LivePage {
  readonly script: string;
  private readonly page: string;
  private readonly problemPage: string;

  constructor(dir: string = join(packageRoot(), 'templates', 'live')) {
    this.page = readFileSync(join(dir, 'live.html'), 'utf8');
    this.problemPage = readFileSync(join(dir, 'problem.html'), 'utf8');
    this.script = readFileSync(join(dir, 'page.js'), 'utf8');
  }

  view(runId: string): LivePageHtml {
    return { status: 200, html: fill(this.page, { run: runId }) };
  }

  problem(status: number, title: string, message: string): LivePageHtml {
    return { status, html: fill(this.problemPage, { title, message }) };
  }
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => (name in values ? escapeHtml(values[name]!) : whole));
}
