/**
 * The sites the replay tests drive, served on loopback: a shop with a search box and product pages, a contact
 * form that submits, and a claim form that takes a file. Each can change its pages the way sites do (a renamed button and a moved layout, a price
 * printed differently, fields with other ids), so that a recipe recorded on one version meets another.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { servePages } from '../engine/harness.js';

export const PRODUCTS = [
  { id: 1, sku: 'A-100', name: 'Blue Mug', price: 12.5 },
  { id: 2, sku: 'B-200', name: 'Red Kettle', price: 30 },
  { id: 3, sku: 'C-300', name: 'Green Teapot', price: 1249.99 },
];

export interface TestSites {
  url: string;
  /** 'cost': the product page prints "Cost: 30.00 USD" instead of "Price: $30.00". */
  shopLayout: 'price' | 'cost';
  /** 'moved': the form's button says "Submit request" and sits above the fields in another wrapper. */
  formLayout: 'send' | 'moved';
  /** 'pending': the thanks page says "Confirmation: pending, your number is C-1005 (sent by email)". */
  thanksLayout: 'plain' | 'pending';
  /** 'renamed': the form's fields have other ids (#full-name, #mail), under the same labels. */
  fieldIds: 'plain' | 'renamed';
  /** Every form submission, in order. */
  submissions: { name: string; email: string }[];
  /** Every file the claim form received, in order: its name and its bytes as text. */
  uploads: { name: string; content: string }[];
  close(): Promise<void>;
}

const page = (title: string, body: string): string => `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;

export async function startTestSites(): Promise<TestSites> {
  const sites: Omit<TestSites, 'url' | 'close'> = { shopLayout: 'price', formLayout: 'send', thanksLayout: 'plain', fieldIds: 'plain', submissions: [], uploads: [] };
  const server = await servePages((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const html = (status: number, body: string) => res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    // The site's root is its shop, for a job given the site itself.
    if (url.pathname === '/shop' || url.pathname === '/') {
      return html(200, page('Errand Shop', '<p>Errand Shop</p><form action="/search"><input id="q" name="q" aria-label="Search products"><button>Search</button></form>'));
    }
    if (url.pathname === '/search') {
      const q = (url.searchParams.get('q') ?? '').toLowerCase();
      const found = PRODUCTS.filter((p) => p.sku.toLowerCase() === q || p.name.toLowerCase().includes(q));
      const list = found.map((p) => `<li><a class="result" href="/product/${p.id}">${p.name}</a></li>`).join('');
      return html(200, page('Search - Errand Shop', `<p>Errand Shop</p><h1>Search results</h1><ul>${list}</ul>`));
    }
    const product = /^\/product\/(\d+)$/.exec(url.pathname);
    if (product !== null) {
      const p = PRODUCTS.find((x) => x.id === Number(product[1]));
      if (p === undefined) return html(404, page('Not found', 'no such product'));
      const price = sites.shopLayout === 'price' ? `<p>Price: $${p.price.toFixed(2)}</p>` : `<p>Cost: ${p.price.toFixed(2)} USD</p>`;
      return html(200, page(`${p.name} - Errand Shop`, `<p>Errand Shop</p><h1>${p.name}</h1><p>SKU ${p.sku}</p>${price}<button>Add to cart</button>`));
    }
    if (url.pathname === '/contact' && req.method === 'GET') {
      const [nameId, emailId] = sites.fieldIds === 'plain' ? ['name', 'email'] : ['full-name', 'mail'];
      const fields = `<label>Name <input id="${nameId}" name="name"></label><label>Email <input id="${emailId}" name="email"></label>`;
      const body =
        sites.formLayout === 'send'
          ? `<h1>Contact us</h1><form method="post" action="/contact">${fields}<button type="submit" id="send">Send</button></form>`
          : `<h1>Contact us</h1><form method="post" action="/contact"><div class="actions"><button type="submit" class="primary">Submit request</button></div><div class="fields">${fields}</div></form>`;
      return html(200, page('Contact', body));
    }
    if (url.pathname === '/contact' && req.method === 'POST') {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString()));
      req.on('end', () => {
        const form = new URLSearchParams(raw);
        sites.submissions.push({ name: form.get('name') ?? '', email: form.get('email') ?? '' });
        const number = `C-${1000 + sites.submissions.length}`;
        const confirmation = sites.thanksLayout === 'plain' ? `Confirmation: ${number}` : `Confirmation: pending, your number is ${number} (sent by email)`;
        html(200, page('Thanks', `<h1>Thanks</h1><p>We will write to you soon.</p><p>${confirmation}</p>`));
      });
      return;
    }
    if (url.pathname === '/claim' && req.method === 'GET') {
      return html(200, page('New claim', '<h1>New claim</h1><form method="post" enctype="multipart/form-data" action="/claim"><label>Receipt <input type="file" id="doc" name="doc"></label><button type="submit" id="send">Send claim</button></form>'));
    }
    if (url.pathname === '/claim' && req.method === 'POST') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        void new Request('http://site/claim', { method: 'POST', headers: { 'content-type': req.headers['content-type'] ?? '' }, body: Buffer.concat(chunks) }).formData().then(async (form) => {
          const file = form.get('doc') as File;
          const content = Buffer.from(await file.arrayBuffer()).toString('utf8');
          sites.uploads.push({ name: file.name, content });
          html(200, page('Claim received', `<h1>Claim received</h1><p>Receipt: ${Buffer.byteLength(content)} bytes</p>`));
        });
      });
      return;
    }
    html(404, page('Not found', 'not here'));
  });
  return Object.assign(sites, { url: server.url, close: server.close }) as TestSites;
}
