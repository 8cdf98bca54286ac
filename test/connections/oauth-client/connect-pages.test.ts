import { describe, expect, it } from 'vitest';
import { ConnectPages } from '../../../src/connections/oauth-client/connect-pages.js';

describe('ConnectPages', () => {
  const pages = new ConnectPages();

  it('renders the start page from the templates: a language, a title, one heading and a real button posting to the flow', () => {
    const page = pages.start({ provider: 'acme', connection: 'crm', action: '/v1/connect/clk_1/start?expires=1&sig=x', expires: '2030-01-01T00:00:00.000Z' });
    expect(page).toMatchObject({ status: 200, hasForm: true });
    expect(page.html).toContain('<html lang="en">');
    expect(page.html).toContain('<title>Connect acme · Errand</title>');
    expect(page.html.match(/<h1>/g)).toHaveLength(1);
    expect(page.html).toContain('<form method="post" action="/v1/connect/clk_1/start?expires=1&#38;sig=x">');
    expect(page.html).toContain('<button type="submit">Continue to acme</button>');
    expect(page.html).not.toMatch(/<script/i);
  });

  it('escapes what it puts in', () => {
    const page = pages.problem(400, 'The <b>title</b>', 'It said "x" & \'y\'');
    expect(page.status).toBe(400);
    expect(page.html).toContain('<h1>The &#60;b&#62;title&#60;/b&#62;</h1>');
    expect(page.html).toContain('It said &#34;x&#34; &#38; &#39;y&#39;');
  });
});
