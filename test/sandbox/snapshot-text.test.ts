import { describe, expect, it } from 'vitest';
import { matchOption } from '../../templates/sandbox/supervisor/choose-option.js';
import { iframeRefs, namelessRefs, renderSnapshot, snapshotRefs, type AriaJsonNode } from '../../templates/sandbox/supervisor/snapshot-text.js';

const view = { viewport: { width: 1280, height: 800 }, hints: new Map<string, string>(), focus: null };
const box = (y: number) => ({ x: 10, y, width: 100, height: 20 });

describe('renderSnapshot', () => {
  it("writes Playwright's ai format with references, states, links and field values, wrappers left out", () => {
    const nodes: AriaJsonNode[] = [
      {
        role: 'generic',
        ref: 'e1',
        box: box(0),
        children: [
          { role: 'heading', name: 'Shop', level: 1, ref: 'e2', box: box(0) },
          { role: 'checkbox', name: 'Gift wrap', checked: true, ref: 'e3', box: box(30) },
          { role: 'link', name: 'Cart', ref: 'e4', url: '/cart', cursor: 'pointer', box: box(60) },
          { role: 'textbox', name: 'Email', ref: 'e5', text: 'a@b.test', placeholder: 'you@example.com', box: box(90) },
          'Free shipping over $50',
        ],
      },
    ];
    expect(renderSnapshot(nodes, view)).toBe(
      [
        'snapshot: 212 characters, 4 references',
        '- heading "Shop" [level=1] [ref=e2]',
        '- checkbox "Gift wrap" [checked] [ref=e3]',
        '- link "Cart" [ref=e4] [url=/cart]',
        '- textbox "Email" [ref=e5] [placeholder="you@example.com"]: a@b.test',
        '- text: Free shipping over $50',
      ].join('\n'),
    );
  });

  it('describes a nameless element by its hint and centre, iframe offsets added', () => {
    const nodes: AriaJsonNode[] = [
      { role: 'button', ref: 'e1', box: { x: 100, y: 40, width: 20, height: 20 } },
      { role: 'iframe', ref: 'e2', box: { x: 300, y: 200, width: 400, height: 300 }, children: [{ role: 'generic', ref: 'f1e1', cursor: 'pointer', box: { x: 10, y: 10, width: 10, height: 10 } }] },
    ];
    const hints = new Map([
      ['e1', 'icon "trash"'],
      ['f1e1', ''],
    ]);
    const text = renderSnapshot(nodes, { ...view, hints });
    expect(text).toContain('- button [ref=e1] (icon "trash", at 110,50)');
    expect(text).toContain('  - generic [ref=f1e1] [cursor=pointer] (at 315,215)');
  });

  it('leaves out aria-hidden parts and elements far off screen, and counts them', () => {
    const nodes: AriaJsonNode[] = [
      { role: 'button', name: 'Near', ref: 'e1', box: box(700) },
      { role: 'button', name: 'Two screens down', ref: 'e2', box: box(2300) },
      { role: 'button', name: 'Far below', ref: 'e3', box: box(2500) },
      { role: 'button', name: 'Far above', ref: 'e4', box: box(-1700) },
      { role: 'generic', ariaHidden: true, ref: 'e5', box: box(10), children: [{ role: 'button', name: 'Behind', ref: 'e6', box: box(10) }, 'x'] },
    ];
    const text = renderSnapshot(nodes, view);
    expect(text).toContain('"Near"');
    expect(text).toContain('"Two screens down"');
    expect(text).not.toMatch(/Far below|Far above|Behind/);
    expect(text.split('\n')[1]).toBe('left out: 1 elements further down (scroll down, or scroll {text}); 1 elements further up (scroll up); 1 parts hidden from assistive technology (aria-hidden)');
    expect(renderSnapshot(nodes, { ...view, focus: 'e3' })).toContain('- button "Far below" [ref=e3]');
  });

  it('cuts a long list after 12 items with a count and the reference that shows it whole, and a long text run', () => {
    const items = Array.from({ length: 30 }, (_, i): AriaJsonNode => ({ role: 'option', name: `Country ${i}`, box: { x: 0, y: 0, width: 0, height: 0 } }));
    const nodes: AriaJsonNode[] = [
      { role: 'combobox', name: 'Country', ref: 'e7', box: box(10), children: items },
      { role: 'paragraph', ref: 'e8', box: box(40), text: 'word '.repeat(100) },
    ];
    const text = renderSnapshot(nodes, view);
    expect(text).toContain('  - option "Country 11"');
    expect(text).not.toContain('Country 12');
    expect(text).toContain('  - … 18 more options (snapshot {ref: "e7"} shows them; select takes any by label or value)');
    expect(text).toMatch(/- paragraph \[ref=e8\]: (word ){47}word… \(260 more characters: read_text\)/);
    expect(renderSnapshot(nodes, { ...view, focus: 'e7' })).toContain('Country 29');
  });

  it('shows a large page footer as one line', () => {
    const links = Array.from({ length: 10 }, (_, i): AriaJsonNode => ({ role: 'link', name: `Footer link ${i}`, ref: `e${10 + i}`, box: box(600) }));
    const text = renderSnapshot([{ role: 'contentinfo', ref: 'e9', box: box(600), children: links }], view);
    expect(text).toContain('- contentinfo [ref=e9] (10 elements left out: snapshot {ref: "e9"} shows them)');
    expect(text).not.toContain('Footer link');
  });

  it('says a focused reference that is no longer there', () => {
    expect(renderSnapshot([], { ...view, focus: 'e99' })).toBe('e99 is not on the page now: take a new snapshot');
  });
});

describe('what a snapshot gives', () => {
  const nodes: AriaJsonNode[] = [
    { role: 'button', ref: 'e1', box: box(0) },
    { role: 'listitem', ref: 'e2', box: box(0), text: 'Alpha' },
    { role: 'iframe', ref: 'e3', box: box(0), children: [{ role: 'generic', children: [{ role: 'button', name: 'Pay', ref: 'f2e5', box: box(0) }] }] },
  ];

  it('lists each reference with its role, name, text and whether it is in an iframe', () => {
    expect(snapshotRefs(nodes)).toEqual([
      { ref: 'e1', role: 'button', name: '', text: '', framed: false },
      { ref: 'e2', role: 'listitem', name: '', text: 'Alpha', framed: false },
      { ref: 'e3', role: 'iframe', name: '', text: '', framed: false },
      { ref: 'f2e5', role: 'button', name: 'Pay', text: '', framed: true },
    ]);
    expect(iframeRefs(nodes)).toEqual([{ iframe: 'e3', frame: 'f2' }]);
    expect(namelessRefs(nodes)).toEqual(['e1']);
  });
});

describe('matchOption', () => {
  const options = [
    { value: 'us', label: 'United States' },
    { value: 'gb', label: 'United Kingdom' },
    { value: 'de', label: 'Germany' },
  ];

  it('takes a value, a label, either ignoring case, or the one label that starts with or holds the text', () => {
    expect(matchOption(options, 'gb')).toBe(1);
    expect(matchOption(options, 'Germany')).toBe(2);
    expect(matchOption(options, 'united kingdom')).toBe(1);
    expect(matchOption(options, 'Germ')).toBe(2);
    expect(matchOption(options, 'Kingdom')).toBe(1);
  });

  it('says when several fit or none does, listing the options', () => {
    expect(matchOption(options, 'United')).toBe('"United" fits several options ("United States", "United Kingdom"): give one whole');
    expect(matchOption(options, 'France')).toBe('no option is "France"; the options are "United States", "United Kingdom", "Germany"');
  });
});
