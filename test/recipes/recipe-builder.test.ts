import { describe, expect, it } from 'vitest';
import { SecretMask } from '../../src/connections/secret-mask.js';
import type { Observation } from '../../src/recipes/observed-sandbox.js';
import { buildRecipe } from '../../src/recipes/recipe-builder.js';
import { fingerprintMismatch, fingerprintOf } from '../../src/recipes/page-fingerprint.js';
import { fromPlaceholders, inputValues, toPlaceholders } from '../../src/recipes/input-placeholders.js';
import { extractResult } from '../../src/recipes/result-extraction.js';
import type { BrowserRequest, BrowserResult, RefElement } from '../../src/sandbox/protocol.js';

const SITE = 'http://127.0.0.1:8000';

function page(url: string | null, title: string | null, text = '', ok = true): BrowserResult {
  return { ok, text, url, title, status: 200, problem: null, screenshot: null, extent: null, tabs: [], dialog: null, elements: [] };
}

function browser(request: BrowserRequest, result: BrowserResult): Observation {
  return { kind: 'browser', request, result };
}

const login: Observation[] = [
  browser({ action: 'navigate', url: `${SITE}/login` }, page(`${SITE}/login`, 'Sign in')),
  browser({ action: 'type', selector: '#user', text: 'ada@example.com' }, page(`${SITE}/login`, 'Sign in')),
  browser({ action: 'type', selector: '#password', text: '{{secret:shop_password}}', secrets: { shop_password: 'hunter2-very-secret' }, submit: true }, page(`${SITE}/account/4711`, 'Your account')),
];
const accountText = 'Your account\nBalance: 1,200.50 EUR\nStatus: active';

describe('a recipe from what a run did', () => {
  const mask = new SecretMask([{ name: 'shop_password', value: 'hunter2-very-secret', typeable: true }]);

  it('keeps a secret as the reference the agent typed, and an input as its placeholder', () => {
    const built = buildRecipe({ inputFiles: [], observations: login, inputs: { email: 'ada@example.com' }, result: { balance: 1200.5, status: 'active' }, finalPageText: accountText, mask });
    if (!('recipe' in built)) throw new Error(built.why);
    const json = JSON.stringify(built.recipe);
    expect(json).not.toContain('hunter2');
    expect(json).not.toContain('ada@example.com');
    expect(built.recipe.steps[1]).toMatchObject({ action: 'type', text: '{{email}}', locators: [{ kind: 'css', selector: '#user' }] });
    expect(built.recipe.steps[2]).toMatchObject({ action: 'type', text: '{{secret:shop_password}}', submit: true });
    expect(built.recipe.extraction).toEqual({
      balance: { from: 'page_text', type: 'number', prefix: 'Balance: ', suffix: ' EUR', before: null },
      status: { from: 'page_text', type: 'string', prefix: 'Status: ', suffix: '', before: null },
    });
  });

  it("refuses a recipe that would hold a secret's value (one the agent typed out in full)", () => {
    const typedOut = [...login.slice(0, 2), browser({ action: 'type', selector: '#password', text: 'hunter2-very-secret', submit: true }, page(`${SITE}/account/4711`, 'Your account'))];
    expect(buildRecipe({ inputFiles: [], observations: typedOut, inputs: {}, result: { status: 'active' }, finalPageText: accountText, mask })).toEqual({ why: "the recipe would hold a secret's value" });
  });

  it("keeps an input's value in the text a member is read by as its placeholder", () => {
    const built = buildRecipe({ inputFiles: [], observations: login, inputs: { email: 'ada@example.com' }, result: { orders: 3 }, finalPageText: 'Orders of ada@example.com: 3', mask });
    if (!('recipe' in built)) throw new Error(built.why);
    expect(built.recipe.extraction.orders).toEqual({ from: 'page_text', type: 'number', prefix: 'Orders of {{email}}: ', suffix: '', before: null });
    expect(extractResult(built.recipe.extraction, 'Orders of bob@example.com: 7', new Map(), inputValues({ email: 'bob@example.com' }))).toMatchObject({ result: { orders: 7 } });
  });

  it('leaves out failed steps and steps that only read the page', () => {
    const observations = [
      ...login.slice(0, 1),
      browser({ action: 'click', text: 'Sign in with Google' }, page(`${SITE}/login`, 'Sign in', 'click failed: timeout', false)),
      browser({ action: 'snapshot' }, page(`${SITE}/login`, 'Sign in', '- textbox "Email"\n- button "Continue"')),
      browser({ action: 'click', text: 'Continue' }, page(`${SITE}/account/4711`, 'Your account')),
      browser({ action: 'read_text' }, page(`${SITE}/account/4711`, 'Your account', accountText)),
    ];
    const built = buildRecipe({ inputFiles: [], observations, inputs: {}, result: { status: 'active' }, finalPageText: accountText, mask: SecretMask.none });
    if (!('recipe' in built)) throw new Error(built.why);
    expect(built.recipe.steps.map((s) => ('action' in s ? s.action : s.tool))).toEqual(['navigate', 'click']);
    expect(built.recipe.steps[1]).toMatchObject({
      locators: [{ kind: 'role', selector: 'role=button[name="Continue"]' }, { kind: 'text', text: 'Continue' }],
      page: { url: `${SITE}/login`, title: 'Sign in', key_text: ['Continue'] },
    });
  });

  it('reads a member from the JSON a code step printed, and makes no recipe of a browser action it does not know', () => {
    const code: Observation = { kind: 'exec', request: { language: 'python', code: 'print(\'{"total": 42, "ok": true}\')', timeoutMs: 1000 }, result: { exitCode: 0, stdout: '{"total": 42, "ok": true}\n', stderr: '', timedOut: false, durationMs: 5 } };
    const built = buildRecipe({ inputFiles: [], observations: [code], inputs: {}, result: { total: 42, ok: true }, finalPageText: null, mask: SecretMask.none });
    if (!('recipe' in built)) throw new Error(built.why);
    expect(built.recipe.extraction).toEqual({ total: { from: 'code_output', type: 'number', step: 0, key: 'total' }, ok: { from: 'code_output', type: 'boolean', step: 0, key: 'ok' } });
    const fly = browser({ action: 'fly', selector: '#f' } as unknown as BrowserRequest, page(`${SITE}/up`, 'Upload'));
    expect(buildRecipe({ inputFiles: [], observations: [fly], inputs: {}, result: { total: 42 }, finalPageText: null, mask: SecretMask.none })).toEqual({ why: 'the run used the browser action fly, which recipes do not record yet' });
  });

  it('keeps an element named by reference by the role and name, or the text, its snapshot showed', () => {
    const at = (elements: RefElement[]): BrowserResult => ({ ...page(`${SITE}/order`, 'Order'), elements });
    const observations = [
      browser({ action: 'navigate', url: `${SITE}/order` }, page(`${SITE}/order`, 'Order')),
      browser({ action: 'select', ref: 'e4', values: ['Large'] }, at([{ ref: 'e4', role: 'combobox', name: 'Size', text: '', framed: false }])),
      browser({ action: 'drag', ref: 'e7', to: { ref: 'e8' } }, at([{ ref: 'e7', role: 'listitem', name: '', text: 'Express', framed: false }, { ref: 'e8', role: 'listitem', name: '', text: 'Standard', framed: false }])),
      browser({ action: 'click', ref: 'e9', clickCount: 2, modifiers: ['Shift'] }, at([{ ref: 'e9', role: 'button', name: 'Large order', text: '', framed: false }])),
      browser({ action: 'dialog', accept: true }, page(`${SITE}/order`, null)),
      browser({ action: 'tab', index: 1 }, page(`${SITE}/review`, 'Review')),
      browser({ action: 'read_text' }, page(`${SITE}/review`, 'Review', 'Size: Large')),
    ];
    const built = buildRecipe({ inputFiles: [], observations, inputs: { size: 'Large' }, result: { size: 'Large' }, finalPageText: 'Size: Large', mask: SecretMask.none });
    if (!('recipe' in built)) throw new Error(built.why);
    expect(built.recipe.steps.slice(1).map((step) => ({ ...step, page: undefined }))).toEqual([
      { tool: 'browser', action: 'select', locators: [{ kind: 'role', selector: 'role=combobox[name="Size"]' }], values: ['{{size}}'], page: undefined },
      { tool: 'browser', action: 'drag', locators: [{ kind: 'text', text: 'Express' }], to_locators: [{ kind: 'text', text: 'Standard' }], page: undefined },
      { tool: 'browser', action: 'click', locators: [{ kind: 'role', selector: 'role=button[name="{{size}} order"]' }], double: true, modifiers: ['Shift'], page: undefined },
      { tool: 'browser', action: 'dialog', accept: true, page: undefined },
      { tool: 'browser', action: 'tab', index: 1, page: undefined },
    ]);
  });

  it('makes no recipe of an element it could not find again: an icon with no name or text, one inside an iframe, a point', () => {
    const click = (request: BrowserRequest, elements: RefElement[]) => buildRecipe({
      inputFiles: [],
      observations: [browser({ action: 'navigate', url: `${SITE}/a` }, page(`${SITE}/a`, 'A')), browser(request, { ...page(`${SITE}/a`, 'A'), elements })],
      inputs: {},
      result: { ok: true },
      finalPageText: 'ok true',
      mask: SecretMask.none,
    });
    expect(click({ action: 'click', ref: 'e3' }, [{ ref: 'e3', role: 'button', name: '', text: '', framed: false }])).toEqual({ why: 'the run acted on a button with no name or text (an icon), which a replay cannot find again' });
    expect(click({ action: 'click', ref: 'f1e3' }, [{ ref: 'f1e3', role: 'button', name: 'Pay', text: '', framed: true }])).toEqual({ why: 'the run acted on the button "Pay" inside an iframe, which a replay does not look into yet' });
    expect(click({ action: 'hover', x: 3, y: 4 }, [])).toEqual({ why: 'the run acted at the point 3,4 of the page, and a replay cannot know the page is laid out the same' });
  });

  it("records an upload by the files' places among the run's input files and their types, never their names", () => {
    const inputFiles = [
      { name: 'invoice-2026-11-ACME.pdf', contentType: 'application/pdf' },
      { name: 'photo-of-ada.png', contentType: 'image/png' },
    ];
    const observations = [
      browser({ action: 'navigate', url: `${SITE}/claims/new` }, page(`${SITE}/claims/new`, 'New claim')),
      browser({ action: 'upload', selector: '#photo', files: ['photo-of-ada.png'] }, page(`${SITE}/claims/new`, 'New claim')),
      browser({ action: 'upload', selector: '#invoice', files: ['invoice-2026-11-ACME.pdf'] }, page(`${SITE}/claims/new`, 'New claim')),
      browser({ action: 'click', selector: '#send' }, page(`${SITE}/claims/17`, 'Claim 17')),
    ];
    const built = buildRecipe({ inputFiles, observations, inputs: {}, result: { claim: 17 }, finalPageText: 'Claim number: 17', mask: SecretMask.none });
    if (!('recipe' in built)) throw new Error(built.why);
    expect(built.recipe.steps.slice(1, 3)).toEqual([
      { tool: 'browser', action: 'upload', locators: [{ kind: 'css', selector: '#photo' }], files: [{ index: 1, content_type: 'image/png' }], page: { url: `${SITE}/claims/new`, title: 'New claim', key_text: [] } },
      { tool: 'browser', action: 'upload', locators: [{ kind: 'css', selector: '#invoice' }], files: [{ index: 0, content_type: 'application/pdf' }], page: { url: `${SITE}/claims/new`, title: 'New claim', key_text: [] } },
    ]);
    const json = JSON.stringify(built.recipe);
    expect(json).not.toContain('invoice-2026');
    expect(json).not.toContain('photo-of-ada');
  });

  it('makes no recipe of a judgement: a boolean no code printed', () => {
    const built = buildRecipe({ inputFiles: [], observations: login.slice(0, 1), inputs: {}, result: { in_stock: true }, finalPageText: 'In stock', mask: SecretMask.none });
    expect(built).toEqual({ why: "the result's in_stock is a boolean no code step printed: a judgement a replay cannot repeat" });
  });
});

describe('page fingerprints', () => {
  const values = inputValues({ sku: 'A-100' });

  it('keeps an input in the path, an id as *, and query parameters by name only', () => {
    expect(fingerprintOf(`${SITE}/product/A-100/reviews?page=2&q=A-100`, 'Reviews of A-100', [], values)).toEqual({ url: `${SITE}/product/{{sku}}/reviews?page=*&q=*`, title: 'Reviews of {{sku}}', key_text: [] });
    expect(fingerprintOf(`${SITE}/order/4711`, 'Order 4711', ['Pay'], values)).toEqual({ url: `${SITE}/order/*`, title: null, key_text: ['Pay'] });
  });

  it("matches another input's page, and says what differs on another page", () => {
    const other = inputValues({ sku: 'B-200' });
    const expected = fingerprintOf(`${SITE}/product/A-100?page=1`, 'A-100 - Shop', ['Add to cart'], values)!;
    expect(fingerprintMismatch(expected, `${SITE}/product/B-200?page=3`, 'B-200 - Shop', 'Red Kettle\nAdd to cart', other)).toBeNull();
    expect(fingerprintMismatch(expected, `${SITE}/basket`, 'Basket', 'Add to cart', other)).toContain('the page is');
    expect(fingerprintMismatch(expected, `${SITE}/product/B-200`, 'B-200 - Shop', 'Add to cart', other)).toContain('lacks the query parameter page');
    expect(fingerprintMismatch(expected, `${SITE}/product/B-200?page=1`, 'B-200 - Shop', 'Put in basket', other)).toBe('the page no longer shows "Add to cart"');
  });
});

describe('input placeholders', () => {
  it('replaces short values only where they are the whole text, and encodes values in URLs', () => {
    const values = inputValues({ qty: 2, city: 'São Paulo', site: 'https://shop.example' });
    expect(toPlaceholders('2', values)).toBe('{{qty}}');
    expect(toPlaceholders('Price: $12.50', values)).toBe('Price: $12.50');
    expect(toPlaceholders('https://shop.example/search?q=S%C3%A3o%20Paulo', values, 'url')).toBe('{{site}}/search?q={{city}}');
    expect(fromPlaceholders('{{site}}/search?q={{city}}', inputValues({ city: 'Rio de Janeiro', site: 'https://shop.example' }), 'url')).toBe('https://shop.example/search?q=Rio%20de%20Janeiro');
    expect(() => fromPlaceholders('{{missing}}', values)).toThrow('the recipe needs the input missing');
    expect(fromPlaceholders('{{secret:pw}}', values)).toBe('{{secret:pw}}');
  });
});

describe('a site given as an input', () => {
  const cases = [
    ['with a trailing slash', 'https://shop.example/'],
    ['without one', 'https://shop.example'],
  ] as const;

  it.each(cases)('is the placeholder wherever its address begins a URL the run visited, given %s', (_how, site) => {
    const values = inputValues({ site, sku: 'A-100' });
    expect(toPlaceholders(site, values, 'url')).toBe('{{site}}');
    expect(toPlaceholders('https://shop.example/search?q=A-100', values, 'url')).toBe('{{site}}/search?q={{sku}}');
    expect(toPlaceholders('https://shop.example.evil/x https://shop.example:8443/x', values, 'url')).toBe('https://shop.example.evil/x https://shop.example:8443/x');
    expect(fingerprintOf('https://shop.example/', 'Shop', [], values)).toEqual({ url: '{{site}}/', title: 'Shop', key_text: [] });
    expect(fingerprintOf('https://shop.example/product/A-100/7', 'Shop', [], values)).toEqual({ url: '{{site}}/product/{{sku}}/*', title: null, key_text: [] });
  });

  it.each(cases)('is filled from the next run, given with or without the slash, after a recipe recorded %s', (_how, site) => {
    const recorded = inputValues({ site });
    const steps = [toPlaceholders(site, recorded, 'url'), toPlaceholders('https://shop.example/search?q=tea', recorded, 'url')];
    const fingerprint = fingerprintOf('https://shop.example/search?q=tea', 'Search', [], recorded)!;
    for (const next of ['https://other.example/', 'https://other.example']) {
      const values = inputValues({ site: next });
      expect(steps.map((step) => fromPlaceholders(step, values, 'url'))).toEqual([next, 'https://other.example/search?q=tea']);
      expect(fingerprintMismatch(fingerprint, 'https://other.example/search?q=coffee', 'Search', null, values)).toBeNull();
      expect(fingerprintMismatch(fingerprint, 'https://shop.example/search?q=coffee', 'Search', null, values)).toContain('where the recipe expects {{site}}/search');
    }
    const root = fingerprintOf('https://shop.example/', 'Shop', [], recorded)!;
    expect(fingerprintMismatch(root, 'https://other.example/', 'Shop', null, inputValues({ site: 'https://other.example' }))).toBeNull();
  });

  it('with a path, stands for that path and keeps the pages under it', () => {
    const values = inputValues({ catalog: 'https://shop.example/catalog/' });
    expect(fingerprintOf('https://shop.example/catalog/item/5', 'Item', [], values)).toEqual({ url: '{{catalog}}/item/*', title: null, key_text: [] });
    expect(fingerprintOf('https://shop.example/catalogue', 'Other', [], values)).toEqual({ url: 'https://shop.example/catalogue', title: 'Other', key_text: [] });
    expect(toPlaceholders('https://shop.example/catalog/item/5', values, 'url')).toBe('{{catalog}}/item/5');
    expect(fromPlaceholders('{{catalog}}/item/5', inputValues({ catalog: 'https://other.example/list' }), 'url')).toBe('https://other.example/list/item/5');
  });

  it('makes a recipe of a run given a site root with its trailing slash', () => {
    const site = 'https://shop.example/';
    const observations = [
      browser({ action: 'navigate', url: site }, page(site, 'Shop')),
      browser({ action: 'type', selector: '#q', text: 'A-100', submit: true }, page('https://shop.example/search?q=A-100', 'Search')),
      browser({ action: 'click', selector: 'a.result' }, page('https://shop.example/product/1', 'Blue Mug')),
    ];
    const built = buildRecipe({ inputFiles: [], observations, inputs: { site, sku: 'A-100' }, result: { price: 12.5 }, finalPageText: 'Blue Mug\nPrice: $12.50', mask: SecretMask.none });
    if (!('recipe' in built)) throw new Error(built.why);
    expect(built.recipe.steps.map((s) => ('url' in s ? s.url : s.tool === 'browser' ? s.page?.url : null))).toEqual(['{{site}}', '{{site}}/', '{{site}}/search?q=*']);
  });
});

describe('a type step', () => {
  it('locates its field by role and exact name first, when the supervisor found one, then by the agent\'s selector', () => {
    const typed = { ...page(`${SITE}/contact`, 'Contact'), roleSelector: 'role=textbox[name="Email"s]' };
    const observations = [
      browser({ action: 'navigate', url: `${SITE}/contact` }, page(`${SITE}/contact`, 'Contact')),
      browser({ action: 'type', selector: '#email', text: 'ada@example.com' }, typed),
      browser({ action: 'type', selector: '#note', text: 'hello there' }, page(`${SITE}/contact`, 'Contact')),
      browser({ action: 'type', selector: 'role=textbox[name="Email"s]', text: 'ada@example.com' }, typed),
      browser({ action: 'type', selector: '#bad', text: 'x' }, { ...typed, roleSelector: 'role=textbox[name="x"] >> nth=1' }),
    ];
    const built = buildRecipe({ inputFiles: [], observations, inputs: { email: 'ada@example.com' }, result: { ok: 'sent' }, finalPageText: 'Status: sent', mask: SecretMask.none });
    if (!('recipe' in built)) throw new Error(built.why);
    expect(built.recipe.steps.slice(1).map((s) => (s.tool === 'browser' ? s.locators : null))).toEqual([
      [{ kind: 'role', selector: 'role=textbox[name="Email"s]' }, { kind: 'css', selector: '#email' }],
      [{ kind: 'css', selector: '#note' }],
      [{ kind: 'role', selector: 'role=textbox[name="Email"s]' }],
      [{ kind: 'css', selector: '#bad' }],
    ]);
  });
});

describe('reading a result', () => {
  it('reads numbers as the page prints them, and says when a line is gone or not a number', () => {
    const rules = { price: { from: 'page_text', type: 'number', prefix: 'Price: $', suffix: '', before: null }, name: { from: 'page_text', type: 'string', prefix: '', suffix: '', before: 'Shop' } } as const;
    expect(extractResult(rules, 'Shop\nGreen Teapot\nPrice: $1,249.99', new Map(), [])).toEqual({ result: { price: 1249.99, name: 'Green Teapot' }, matched: ['Price: $1,249.99', 'Green Teapot'] });
    expect(extractResult(rules, 'Shop\nGreen Teapot\nPrice: $on request', new Map(), [])).toEqual({ why: '"on request" on the final page is not a number (price)' });
    expect(extractResult(rules, 'Shop\nGreen Teapot\nCost: 12 USD', new Map(), [])).toEqual({ why: 'no line of the final page gives price as the recipe reads it' });
  });
});
