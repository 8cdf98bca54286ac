/**
 * The agent's hands and eyes (docs/api.md, "What the agent can do"), on both sandbox drivers: the snapshot's
 * references (iframes and shadow roots included, stale ones refused), every control a page has, and failures said in
 * words. Each action is judged by what the page got (its /log), never by what the action said.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/driver.js';
import type { BrowserRequest, BrowserResult, LiveFrame, LiveTabs } from '../../src/sandbox/protocol.js';
import { traceEvents, zipEntries } from '../fixtures/recording-files.js';
import { TEST_DRIVERS } from '../fixtures/sandbox-drivers.js';
import { serveInSandbox, type SandboxSite } from '../fixtures/sandbox-site.js';
import { BROWSER_PAGES, refOf } from './browser-pages.js';

const signal = () => AbortSignal.timeout(60_000);

describe.each(TEST_DRIVERS)('the browser on the $name driver', (driver) => {
  let stop: () => Promise<void>;
  let sandbox: Sandbox;
  let site: SandboxSite;
  const act = (request: BrowserRequest): Promise<BrowserResult> => sandbox.browser(request, signal());
  const open = async (path: string): Promise<string> => {
    expect(await act({ action: 'navigate', url: `${site.origin}${path}` })).toMatchObject({ ok: true });
    return (await act({ action: 'snapshot' })).text;
  };
  const logged = (entry: string): Promise<string[]> => site.logged(entry);

  beforeAll(async () => {
    if (!driver.available) return;
    const started = await driver.start();
    stop = started.close;
    sandbox = await started.create(`run_browser_actions_${driver.name}`);
    site = await serveInSandbox(sandbox, BROWSER_PAGES, signal());
  }, 120_000);

  afterAll(async () => {
    await stop?.();
  });

  describe.skipIf(!driver.available)('references', () => {
    it('gives a reference to each element one can act on, in shadow roots and in same- and cross-origin iframes, and acts by it', async () => {
      const snapshot = await open('/refs');
      expect(snapshot).toMatch(/^snapshot: [\d,]+ characters, \d+ references\n/);
      await act({ action: 'click', ref: refOf(snapshot, 'button "Plain button"') });
      await act({ action: 'click', ref: refOf(snapshot, 'button "Shadow button"') });
      const inFrames = [...snapshot.matchAll(/- textbox "Framed field" \[ref=([a-z0-9]+)\]/g)].map((m) => m[1]!);
      const buttons = [...snapshot.matchAll(/- button "Framed button" \[ref=([a-z0-9]+)\]/g)].map((m) => m[1]!);
      expect(inFrames).toHaveLength(2);
      for (const [i, ref] of inFrames.entries()) {
        expect(await act({ action: 'type', ref, text: `typed ${i}` })).toMatchObject({ ok: true, elements: [{ ref, role: 'textbox', name: 'Framed field', framed: true }] });
        expect((await act({ action: 'click', ref: buttons[i]! })).ok).toBe(true);
      }
      const log = await logged('framed true typed 1');
      expect(log).toEqual(expect.arrayContaining(['plain', 'shadow', 'framed false typed 0', 'framed true typed 1']));
    });

    it('describes a control with no name by its icon, class and position, and acts by its reference', async () => {
      const snapshot = await open('/refs');
      const trash = /- button \[ref=([a-z0-9]+)\] \(icon "icon-trash", at \d+,\d+\)/.exec(snapshot);
      const star = /- generic \[ref=([a-z0-9]+)\] \[cursor=pointer\] \(class "star", at \d+,\d+\)/.exec(snapshot);
      expect(trash, snapshot).not.toBeNull();
      expect(star, snapshot).not.toBeNull();
      await act({ action: 'click', ref: trash![1]! });
      await act({ action: 'click', ref: star![1]! });
      expect(await logged('star')).toContain('trash');
    });

    it('leaves out what cannot be seen or used, cuts long lists with a count and the way to see them, and says so', async () => {
      const snapshot = await open('/refs');
      expect(snapshot).not.toContain('Hidden one');
      expect(snapshot).not.toContain('Behind a modal');
      expect(snapshot).not.toContain('Far below');
      expect(snapshot).toContain('Item 11');
      expect(snapshot).not.toContain('Item 12"');
      const list = /- … 48 more listitems \(snapshot \{ref: "([a-z0-9]+)"\} shows them\)/.exec(snapshot);
      expect(list, snapshot).not.toBeNull();
      expect(snapshot).toMatch(/\nleft out: 1 elements further down \(scroll down, or scroll \{text\}\); 1 parts hidden from assistive technology \(aria-hidden\); items of long lists \(e\d+\)\n/);
      const whole = (await act({ action: 'snapshot', ref: list![1]! })).text;
      expect(whole).toContain('link "Item 59"');
    });

    it('refuses a reference whose element the page replaced, and one from before the page loaded anew, acting on nothing', async () => {
      let snapshot = await open('/refs');
      const swap = refOf(snapshot, 'button "Swap me"');
      await act({ action: 'click', ref: refOf(snapshot, 'button "Replace"') });
      const stale = await act({ action: 'click', ref: swap });
      expect(stale.ok).toBe(false);
      expect(stale.text).toBe(`click ${swap} failed: the reference ${swap} is stale: the element is no longer on the page (it changed). Take a new snapshot and use a reference from it`);
      snapshot = await open('/refs');
      const plain = refOf(snapshot, 'button "Plain button"');
      await act({ action: 'reload' });
      const reloaded = await act({ action: 'click', ref: plain });
      expect(reloaded.text).toMatch(/the reference e\d+ is stale: .*Take a new snapshot/);
      expect(await site.log()).not.toContain('new');
      expect((await site.log()).filter((entry) => entry === 'old')).toEqual([]);
    });
  });

  describe.skipIf(!driver.available)('every control a page has', () => {
    it('hovers to open a menu, then clicks in it', async () => {
      let snapshot = await open('/controls');
      expect(snapshot).not.toContain('Laptops');
      expect(await act({ action: 'hover', text: 'Products' })).toMatchObject({ ok: true, text: 'hovering over "Products"' });
      snapshot = (await act({ action: 'snapshot' })).text;
      await act({ action: 'click', ref: refOf(snapshot, 'link "Laptops"') });
      await logged('menu laptops');
    });

    it("chooses a native select's option by label or by value, and several of a multiple one", async () => {
      const snapshot = await open('/controls');
      const fruit = refOf(snapshot, 'combobox "Fruit"');
      expect(await act({ action: 'select', ref: fruit, values: ['banana'] })).toMatchObject({ ok: true, text: 'selected "Banana" in the select' });
      expect((await act({ action: 'select', ref: fruit, values: ['a'] })).text).toBe('selected "Apple" in the select');
      const wrong = await act({ action: 'select', ref: fruit, values: ['Cherry'] });
      expect(wrong).toMatchObject({ ok: false, text: `select in ${fruit} (combobox "Fruit") failed: no option is "Cherry"; the options are "Choose", "Apple", "Banana"` });
      expect((await act({ action: 'select', ref: refOf(snapshot, 'listbox "Colours"'), values: ['Red', 'b'] })).text).toBe('selected "Red", "Blue" in the select');
      // A select is what people type into, too.
      expect((await act({ action: 'type', ref: fruit, text: 'Banana' })).ok).toBe(true);
      expect(await logged('colours r,b')).toEqual(expect.arrayContaining(['fruit b', 'fruit a']));
    });

    it('chooses in a custom listbox and in an autocomplete combobox', async () => {
      const snapshot = await open('/controls');
      expect((await act({ action: 'select', ref: refOf(snapshot, 'listbox "Size"'), values: ['Large'] })).text).toBe('selected "Large" in the listbox "Size"');
      const city = await act({ action: 'select', ref: refOf(snapshot, 'combobox "City"'), values: ['Bern'] });
      expect(city).toMatchObject({ ok: true, text: 'selected "Bern" in the combobox "City"' });
      expect(await logged('city Bern')).toContain('size Large');
    });

    it('clicks twice, with the right button, and with modifiers held', async () => {
      const snapshot = await open('/controls');
      expect((await act({ action: 'click', ref: refOf(snapshot, 'button "Double me"'), clickCount: 2 })).text).toMatch(/^double-clicked e\d+ \(button "Double me"\)$/);
      expect((await act({ action: 'click', ref: refOf(snapshot, 'button "Right me"'), button: 'right' })).text).toMatch(/^clicked with the right button /);
      await act({ action: 'click', ref: refOf(snapshot, 'button "Modified"'), modifiers: ['Control', 'Shift'] });
      expect(await logged('modifiers true true')).toEqual(expect.arrayContaining(['double', 'right']));
    });

    it('presses key chords', async () => {
      const snapshot = await open('/controls');
      await act({ action: 'click', ref: refOf(snapshot, 'textbox "Notes"') });
      await act({ action: 'press', key: 'Control+A' });
      await act({ action: 'press', key: 'Delete' });
      await logged('notes []');
    });

    it('sets a native slider and an ARIA slider to a value', async () => {
      const snapshot = await open('/controls');
      expect((await act({ action: 'type', ref: refOf(snapshot, 'slider "Volume"'), text: '55' })).text).toMatch(/^set e\d+ \(slider "Volume"\) to (55|60)/);
      expect((await act({ action: 'type', ref: refOf(snapshot, 'slider "Rating"'), text: '7' })).text).toMatch(/^set e\d+ \(slider "Rating"\) to 7$/);
      const above = await act({ action: 'type', ref: refOf(snapshot, 'slider "Rating"'), text: '12' });
      expect(above).toMatchObject({ ok: false });
      expect(above.text).toContain('goes from 0 to 10: 12 is above it');
      expect(await logged('rating 7')).toEqual(expect.arrayContaining([expect.stringMatching(/^volume (55|60)$/)]));
    });

    it('takes dates and times in the forms people write them, and refuses what is not one', async () => {
      const snapshot = await open('/controls');
      const date = refOf(snapshot, 'textbox "Start date"');
      const time = refOf(snapshot, 'textbox "Start time"');
      expect((await act({ action: 'type', ref: date, text: '03/31/2010' })).text).toBe(`set ${date} (textbox "Start date") to 2010-03-31`);
      expect((await act({ action: 'type', ref: time, text: '10:22 PM' })).text).toBe(`set ${time} (textbox "Start time") to 22:22`);
      expect((await act({ action: 'type', ref: date, text: '04/05/2011' })).text).toBe(`set ${date} (textbox "Start date") to 2011-04-05 (read 04/05/2011 as month/day/year)`);
      const wrong = await act({ action: 'type', ref: date, text: 'next Tuesday' });
      expect(wrong).toMatchObject({ ok: false, text: `${date} (textbox "Start date") is a date field: "next Tuesday" is not a date; write it as 2010-03-31, 03/31/2010 or March 31, 2010` });
      expect(await logged('date 2011-04-05')).toEqual(expect.arrayContaining(['date 2010-03-31', 'time 22:22']));
    });

    it('says why an element cannot be used: read-only, disabled, covered by another, or missing', async () => {
      const snapshot = await open('/controls');
      const code = await act({ action: 'type', ref: refOf(snapshot, 'textbox "Code"'), text: 'X' });
      expect(code.text).toMatch(/^type into e\d+ \(textbox "Code"\) failed: the field is read-only: /);
      const disabled = await act({ action: 'click', ref: refOf(snapshot, 'button "Disabled button" [disabled]') });
      expect(disabled.text).toMatch(/^click e\d+ \(button "Disabled button"\) failed: the element is disabled: /);
      const covered = await act({ action: 'click', text: 'Covered button' });
      expect(covered.text).toBe('click "Covered button" failed: the element is covered by <div.cookie-banner> "Cookies": close or move that first (a cookie banner, a dialog, a menu), or press Escape');
      expect((await act({ action: 'click', selector: '#nothing-here' })).text).toBe('click #nothing-here failed: no element on the page matches it now');
      expect(await site.log()).not.toContain('covered');
    });

    it('clicks at a point of the viewport, as a screenshot shows it', async () => {
      await open('/controls');
      const shot = await act({ action: 'screenshot' });
      expect(shot.text).toBe('screenshot of the viewport (1280x800 CSS pixels: x and y of click, hover and drag are in these)');
      // The canvas is fixed at 1000,600 (the page's style): a point 50,30 into it.
      expect((await act({ action: 'click', x: 1050, y: 630 })).text).toBe('clicked at 1050,630 (on <canvas>)');
      await logged('canvas 50 30');
      expect((await act({ action: 'click', x: 1300, y: 10 })).text).toBe('1300,10 is outside the viewport (1280x800 CSS pixels, as a screenshot shows it)');
    });

    it('drags one element onto another', async () => {
      const snapshot = await open('/controls');
      const alpha = /- listitem \[ref=(e\d+)\]: Alpha/.exec(snapshot)![1]!;
      const dragged = await act({ action: 'drag', ref: alpha, to: { text: 'Gamma' } });
      expect(dragged).toMatchObject({ ok: true });
      await logged('order Beta,Gamma,Alpha');
    });

    it('scrolls an area by its reference, and the page to a text that loads further down', async () => {
      const snapshot = await open('/controls');
      const feed = await act({ action: 'scroll', direction: 'down', amount: 200, at: { ref: refOf(snapshot, 'region "Feed"') } });
      expect(feed.text).toMatch(/^scrolled the region "Feed" down at e\d+ \(region "Feed"\); now at 200 of \d+ px$/);
      await open('/long');
      const treasure = await act({ action: 'scroll', toText: 'The hidden treasure' });
      expect(treasure.text).toMatch(/^scrolled to "The hidden treasure" \(it showed after scrolling \d+ screens down\); the page is at y=\d+$/);
      expect((await act({ action: 'scroll', toText: 'Not anywhere' })).text).toBe('"Not anywhere" is not on the page, down to its end: read_text or a snapshot shows what is');
    });

    it('waits for a text to show and to go, or a short time', async () => {
      await open('/controls');
      await act({ action: 'click', text: 'Start' });
      expect(await act({ action: 'wait', text: 'Ready now', seconds: 5 })).toMatchObject({ ok: true, text: '"Ready now" shows' });
      expect(await act({ action: 'wait', text: 'Ready now', gone: true, seconds: 0.5 })).toMatchObject({ ok: false, text: '"Ready now" is still on the page after 0.5 s' });
      expect(await act({ action: 'wait', seconds: 0.2 })).toMatchObject({ ok: true, text: 'waited 0.2 s' });
    });

    it('is recorded: the trace holds the hover, the choice, the drag and the click at a point', async () => {
      await sandbox.startRecording(signal());
      const snapshot = await open('/controls');
      await act({ action: 'hover', text: 'Products' });
      await act({ action: 'select', ref: refOf(snapshot, 'combobox "Fruit"'), values: ['Apple'] });
      await act({ action: 'drag', ref: /- listitem \[ref=(e\d+)\]: Alpha/.exec(snapshot)![1]!, to: { text: 'Beta' } });
      await act({ action: 'click', x: 1050, y: 630 });
      const recorded = await sandbox.finishRecording([], signal());
      const calls = traceEvents(await zipEntries(recorded!.trace)).filter((e) => e.type === 'before').map((e) => `${e.class}.${e.method}`);
      expect(calls).toEqual(expect.arrayContaining(['Frame.hover', 'Frame.selectOption', 'Frame.dragAndDrop', 'Page.mouseClick']));
    });

    it('reads a long page in pages of 20,000 characters, saying how much it shows and where the next starts', async () => {
      await open('/huge');
      const first = await act({ action: 'read_text' });
      expect(first.text).toHaveLength(20_000);
      expect(first.text.startsWith('Line 000')).toBe(true);
      const total = Number(/of (\d+);/.exec(first.extent ?? '')?.[1]);
      expect(first.extent).toBe(`characters 0 to 20000 of ${total}; read_text {offset: 20000} reads on`);
      const rest = await act({ action: 'read_text', offset: 20_000 });
      expect(rest.extent).toBe(`characters 20000 to ${total} of ${total}`);
      expect(rest.text.trimEnd().endsWith('Line 599 of a long report, with words to fill it.')).toBe(true);
    });

    it('goes back, forward and reloads', async () => {
      await open('/controls');
      await open('/refs');
      expect(await act({ action: 'back' })).toMatchObject({ ok: true, title: 'Controls' });
      expect(await act({ action: 'forward' })).toMatchObject({ ok: true, title: 'Refs' });
      expect(await act({ action: 'reload' })).toMatchObject({ ok: true, title: 'Refs', status: 200 });
    });
  });

  describe.skipIf(!driver.available)('tabs, popups and dialogs', () => {
    /** Closes every tab but the first, so that each test starts with one. */
    const oneTab = async (): Promise<void> => {
      let tabs = (await act({ action: 'snapshot' })).tabs;
      while (tabs.length > 1) tabs = (await act({ action: 'tab', index: tabs.length - 1, close: true })).tabs;
    };

    it('follows a link to a new tab, lists the tabs, switches between them and closes one', async () => {
      await oneTab();
      const snapshot = await open('/tabs');
      const opened = await act({ action: 'click', ref: refOf(snapshot, 'link "Open second"') });
      expect(opened).toMatchObject({ ok: true, title: 'Second', url: `${site.origin}/second` });
      expect(opened.text).toMatch(/; it opened a new tab, which is now current: http:\/\/127\.0\.0\.1:\d+\/second$/);
      expect(opened.tabs).toEqual([
        { index: 0, url: `${site.origin}/tabs`, title: 'Tabs', current: false },
        { index: 1, url: `${site.origin}/second`, title: 'Second', current: true },
      ]);
      expect(await act({ action: 'tab', index: 0 })).toMatchObject({ ok: true, title: 'Tabs', text: 'switched to tab 0' });
      expect((await act({ action: 'tab', index: 5 })).text).toBe('there is no tab 5; the tabs are 0 to 1');
      const closed = await act({ action: 'tab', index: 1, close: true });
      expect(closed).toMatchObject({ ok: true, text: 'closed tab 1', title: 'Tabs' });
      expect(closed.tabs).toHaveLength(1);
    });

    it('works in a sign-in popup, which closes itself and hands back to its opener', async () => {
      await oneTab();
      const snapshot = await open('/tabs');
      const popup = await act({ action: 'click', ref: refOf(snapshot, 'button "Sign in"') });
      expect(popup).toMatchObject({ title: 'Sign in', tabs: [{ current: false }, { current: true }] });
      const form = (await act({ action: 'snapshot' })).text;
      await act({ action: 'type', ref: refOf(form, 'textbox "User"'), text: 'alice' });
      const back = await act({ action: 'click', ref: refOf(form, 'button "Continue"') });
      expect(back).toMatchObject({ ok: true, title: 'Tabs', tabs: [{ index: 0, current: true }] });
      expect(back.text).toMatch(/; the tab closed, and http:\/\/127\.0\.0\.1:\d+\/tabs is current$/);
      await logged('signed in alice');
    });

    it('takes a click whose press closes the popup before the button is released as done, not failed', async () => {
      await oneTab();
      const snapshot = await open('/tabs');
      await act({ action: 'click', ref: refOf(snapshot, 'button "Sign in"') });
      const form = (await act({ action: 'snapshot' })).text;
      await act({ action: 'type', ref: refOf(form, 'textbox "User"'), text: 'bob' });
      const back = await act({ action: 'click', ref: refOf(form, 'button "Continue at once"') });
      expect(back).toMatchObject({ ok: true, title: 'Tabs', tabs: [{ index: 0, current: true }] });
      expect(back.text).toMatch(/; the tab closed, and http:\/\/127\.0\.0\.1:\d+\/tabs is current$/);
      await logged('signed in bob');
    });

    it('keeps downloads from a tab other than the first', async () => {
      await oneTab();
      const snapshot = await open('/tabs');
      await act({ action: 'click', ref: refOf(snapshot, 'link "Open second"') });
      await act({ action: 'click', text: 'Get file' });
      let files: string[] = [];
      for (let i = 0; i < 50 && !files.includes('from-tab.txt'); i++) {
        files = (await sandbox.listOutputs(signal())).files.map((file) => file.name);
        if (!files.includes('from-tab.txt')) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(files).toContain('from-tab.txt');
      await oneTab();
    });

    it('shows a confirm to the agent, which accepts or dismisses it; nothing else is done while it waits', async () => {
      await oneTab();
      const snapshot = await open('/dialogs');
      const asked = await act({ action: 'click', ref: refOf(snapshot, 'button "Delete"') });
      expect(asked).toMatchObject({ ok: true, dialog: { type: 'confirm', message: 'Delete the item?', defaultValue: '' } });
      expect(asked.text).toBe('click opened a dialog, which holds the page until it is answered (dialog {accept})');
      const blocked = await act({ action: 'snapshot' });
      expect(blocked).toMatchObject({ ok: false, text: 'snapshot was not done: the confirm "Delete the item?" holds the page; answer it first with dialog {accept: true} or {accept: false}' });
      expect(await act({ action: 'dialog', accept: false })).toMatchObject({ ok: true, text: 'dismissed the confirm "Delete the item?"', dialog: null });
      await act({ action: 'click', ref: refOf(snapshot, 'button "Delete"') });
      expect((await act({ action: 'dialog', accept: true })).text).toBe('accepted the confirm "Delete the item?"');
      expect(await logged('confirm true')).toContain('confirm false');
      expect((await act({ action: 'dialog', accept: true })).text).toBe('no dialog is open on this tab');
    });

    it('answers an alert and a prompt with text', async () => {
      const snapshot = await open('/dialogs');
      expect((await act({ action: 'click', ref: refOf(snapshot, 'button "Save"') })).dialog).toEqual({ type: 'alert', message: 'Saved!', defaultValue: '' });
      await act({ action: 'dialog', accept: true });
      expect((await act({ action: 'click', ref: refOf(snapshot, 'button "Name"') })).dialog).toEqual({ type: 'prompt', message: 'Your name?', defaultValue: 'anon' });
      expect((await act({ action: 'dialog', accept: true, text: 'Bob' })).text).toBe('accepted the prompt "Your name?" with "Bob"');
      expect(await logged('prompt Bob')).toContain('alerted');
    });

    it('asks before leaving a page with unsaved changes (beforeunload), and stays when dismissed', async () => {
      const snapshot = await open('/dialogs');
      await act({ action: 'type', ref: refOf(snapshot, 'textbox "Draft"'), text: 'unsaved' });
      const leaving = await act({ action: 'navigate', url: `${site.origin}/refs` });
      expect(leaving.dialog).toMatchObject({ type: 'beforeunload' });
      expect((await act({ action: 'dialog', accept: false })).title).toBe('Dialogs');
      const again = await act({ action: 'navigate', url: `${site.origin}/refs` });
      expect(again.dialog).toMatchObject({ type: 'beforeunload' });
      expect(await act({ action: 'dialog', accept: true })).toMatchObject({ ok: true, title: 'Refs' });
    });

    it('shows the live view the tab the agent is on, lists the tabs for it, and lets a person switch tab', async () => {
      await oneTab();
      const snapshot = await open('/tabs');
      const watching = new AbortController();
      const live = liveEvents(await sandbox.liveFrames(watching.signal));
      try {
        const clicked = live.mark();
        await act({ action: 'click', ref: refOf(snapshot, 'link "Open second"') });
        await live.until('a frame of the new tab', (e) => e.event === 'frame' && (e.data as LiveFrame).url?.endsWith('/second') === true);
        const listed = await live.until('the tabs', (e) => e.event === 'tabs' && (e.data as LiveTabs).tabs.length === 2 && (e.data as LiveTabs).tabs[1]!.current);
        expect((listed.data as LiveTabs).tabs.map((tab) => tab.title)).toEqual(['Tabs', 'Second']);
        const switched = live.mark();
        await sandbox.liveInput({ type: 'tab', index: 0 }, signal());
        await live.until('a frame of the first tab', (e) => e.event === 'frame' && (e.data as LiveFrame).url?.endsWith('/tabs') === true, switched);
        await live.until('the tabs', (e) => e.event === 'tabs' && (e.data as LiveTabs).tabs[0]!.current, switched);
        expect((await act({ action: 'read_text' })).tabs.map((tab) => tab.current)).toEqual([true, false]);
        await expect(sandbox.liveInput({ type: 'tab', index: 7 }, signal())).rejects.toMatchObject({ code: 'bad_request', message: expect.stringContaining('there is no tab 7') });
      } finally {
        watching.abort();
      }
      await oneTab();
    });
  });
});

/** The live view's events as they come; `until` waits for one that fits (or fails when the stream ends first). */
function liveEvents(stream: ReadableStream<Uint8Array>): {
  /** How many events came so far: `until` may look only at those after. */
  mark(): number;
  until(what: string, fits: (event: { event: string; data: unknown }) => boolean, after?: number): Promise<{ event: string; data: unknown }>;
} {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  const seen: { event: string; data: unknown }[] = [];
  let buffered = '';
  let ended = false;
  const pump = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffered += decoder.decode(value, { stream: true });
        const events = buffered.split('\n\n');
        buffered = events.pop()!;
        for (const text of events) {
          const match = /^event: (\w+)\ndata: (.*)$/s.exec(text);
          if (match !== null) seen.push({ event: match[1]!, data: JSON.parse(match[2]!) });
        }
      }
    } catch {
      // Aborted by the test.
    }
    ended = true;
  })();
  void pump;
  return {
    mark: () => seen.length,
    async until(what, fits, after = 0) {
      for (let i = 0; i < 300; i++) {
        const found = seen.slice(after).find(fits);
        if (found !== undefined) return found;
        if (ended) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`the live view never sent ${what}`);
    },
  };
}
