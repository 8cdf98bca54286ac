import { describe, expect, it } from 'vitest';
import { renderBody } from '../../../src/mail/outbound/body-rendering.js';
import { htmlToText } from '../../../src/mail/html-text.js';

describe('renderBody', () => {
  it('prefers body_html over body_markdown over text, and always has a text part', () => {
    expect(renderBody({ text: 't', body_markdown: '*m*', body_html: '<p>h</p>' })).toEqual({ text: 't', html: '<p>h</p>' });
    const md = renderBody({ body_markdown: 'Hello *world*' });
    expect(md.text).toBe('Hello *world*');
    expect(md.html).toMatch(/<em[^>]*>world<\/em>/);
    expect(md.html).not.toContain('<style>');
    expect(renderBody({ body_html: '<p>Hi <a href="https://x.test/a">there</a></p>' })).toEqual({ text: 'Hi there [https://x.test/a]', html: '<p>Hi <a href="https://x.test/a">there</a></p>' });
    expect(renderBody({ text: 'only' })).toEqual({ text: 'only', html: null });
  });
});

describe('htmlToText', () => {
  it('keeps lines, list items and entities, and drops scripts, styles and comments', () => {
    const html = '<style>p{}</style><script>alert(1)</script><!-- c --><h1>Title</h1><p>a&amp;b&nbsp;&#233;&#x263A;</p><ul><li>one</li><li>two</li></ul>x<br>y';
    expect(htmlToText(html)).toBe('Title\n\na&b é☺\n\n- one\n- two\nx\ny');
  });
});

describe('htmlToText on hostile HTML', () => {
  // A pass that rescanned the input per tag would not finish 200 kB of these within the test's timeout.
  it('reads unclosed links, scripts, comments and entities to the end', () => {
    for (const piece of ['<a href="x">', '<script>', '<!--', '<', '&amp', '<a href="', '<style>x</styl']) {
      expect(typeof htmlToText(piece.repeat(200_000 / piece.length))).toBe('string');
    }
    expect(htmlToText('<a href="https://x.test/?a=1&amp;b=2">go</a> <a href="https://y.test">https://y.test</a>')).toBe('go [https://x.test/?a=1&b=2] https://y.test');
  });
});
