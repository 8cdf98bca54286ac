import juice from 'juice';
import { Marked } from 'marked';
import { htmlToText } from '../html-text.js';

/** What a send gives for its content: at least one of the three. */
export interface BodyInput {
  text?: string;
  body_markdown?: string;
  body_html?: string;
}

export interface RenderedBody {
  text: string;
  html: string | null;
}

/** A plain stylesheet for rendered Markdown, inlined into the elements because many mail clients drop <style>. */
const STYLESHEET = `
body { font-family: -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif; font-size: 15px; line-height: 1.5; color: #1f2328; }
a { color: #0969da; }
h1, h2, h3, h4 { line-height: 1.25; margin: 1em 0 0.5em; }
p, ul, ol, blockquote, pre, table { margin: 0 0 1em; }
blockquote { border-left: 3px solid #d0d7de; padding: 0 1em; color: #59636e; }
code { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 90%; background: #f6f8fa; padding: 0.1em 0.3em; }
pre { background: #f6f8fa; padding: 12px; overflow: auto; }
pre code { padding: 0; }
table { border-collapse: collapse; }
th, td { border: 1px solid #d0d7de; padding: 4px 8px; }
`;

const markdown = new Marked({ gfm: true, breaks: false, async: false });

/**
 * The parts of a message: `body_html` over `body_markdown` (rendered to HTML with inlined CSS) over `text`, and
 * always a text part: `text` when given, else the Markdown source, else a rendering of the HTML.
 */
export function renderBody(input: BodyInput): RenderedBody {
  const html = input.body_html ?? (input.body_markdown === undefined ? null : markdownToHtml(input.body_markdown));
  const text = input.text ?? input.body_markdown ?? (html === null ? '' : htmlToText(html));
  return { text, html };
}

export function markdownToHtml(source: string): string {
  const body = markdown.parse(source) as string;
  return juice(`<!doctype html><html><head><meta charset="utf-8"><style>${STYLESHEET}</style></head><body>${body}</body></html>`);
}
