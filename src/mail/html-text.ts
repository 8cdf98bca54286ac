/** Entities a text rendering spells out; any other named entity is left as written. */
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };
const BLOCK = new Set(['p', 'div', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'table', 'tr', 'blockquote', 'pre', 'section', 'article', 'header', 'footer']);
/** Elements whose content is not text. */
const SKIPPED = new Set(['script', 'style', 'head', 'title']);

/**
 * A readable plain-text rendering of HTML: block elements and breaks become line breaks, links keep their target
 * in brackets, list items get a dash, and scripts, styles and comments are dropped. It is the text part of a
 * message sent with HTML only, and the text of a received message that has none. One pass over the input, so that
 * no HTML, however broken or hostile, makes it slow.
 */
export function htmlToText(html: string): string {
  let out = '';
  let i = 0;
  let link: { href: string; raw: string; start: number } | null = null;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt < 0) {
      out += html.slice(i);
      break;
    }
    out += html.slice(i, lt);
    if (html.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 4);
      i = end < 0 ? html.length : end + 3;
      continue;
    }
    const gt = html.indexOf('>', lt + 1);
    if (gt < 0) {
      out += html.slice(lt);
      break;
    }
    const tag = html.slice(lt + 1, gt);
    const closing = tag.startsWith('/');
    const name = /^\/?\s*([a-z0-9]+)/i.exec(tag)?.[1]?.toLowerCase() ?? '';
    i = gt + 1;
    if (!closing && SKIPPED.has(name)) {
      const close = new RegExp(`</${name}[^>]*>`, 'gi');
      close.lastIndex = i;
      i = close.exec(html) === null ? html.length : close.lastIndex;
      continue;
    }
    if (name === 'br') out += '\n';
    else if (name === 'li' && !closing) out += '\n- ';
    else if (BLOCK.has(name)) out += '\n';
    else if (name === 'a' && !closing) {
      const href = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)')/i.exec(tag);
      const raw = href === null ? null : (href[1] ?? href[2] ?? '');
      link = raw === null ? null : { href: decodeEntities(raw), raw, start: out.length };
    } else if (name === 'a' && closing && link !== null) {
      const label = decodeEntities(out.slice(link.start)).trim();
      out = label === '' || label === link.href ? `${out.slice(0, link.start)}${link.raw}` : `${out} [${link.raw}]`;
      link = null;
    }
  }
  return decodeEntities(out)
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{1,10}[0-9]{0,2});/gi, (whole, name: string) => {
    const lower = name.toLowerCase();
    if (lower.startsWith('#x')) return codePoint(Number.parseInt(lower.slice(2), 16)) ?? whole;
    if (lower.startsWith('#') && lower !== '#39') return codePoint(Number.parseInt(lower.slice(1), 10)) ?? whole;
    return ENTITIES[lower] ?? whole;
  });
}

function codePoint(n: number): string | null {
  return Number.isInteger(n) && n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : null;
}
