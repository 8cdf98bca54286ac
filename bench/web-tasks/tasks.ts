/**
 * The tasks of bench/web-tasks.ts: one page each under bench/web-tasks/ (with its own check, which calls done()),
 * and how the scripted agent goes about it with a tool's hands: it looks (snapshot, read_text, a screenshot), finds
 * what to act on in what it read, acts, and reacts to what the answer says, as a model would. The same steps run
 * with either tool; where a tool lacks an action, the answer says so and the task stays unsolved.
 */
import type { Answer, BrowserToolHands, Snapshot, Target } from './tools.js';

export interface WebTask {
  id: string;
  category: 'forms' | 'widgets' | 'pointer' | 'tabs' | 'dialogs' | 'frames' | 'scrolling' | 'keyboard';
  solve(t: BrowserToolHands, url: (page: string) => string): Promise<void>;
}

/** A thing the agent could not find or do: the task ends unsolved with the reason. */
export class Stuck extends Error {}

function need<T>(found: T | null | undefined, what: string): T {
  if (found === null || found === undefined) throw new Stuck(`found no ${what}`);
  return found;
}

async function must(answer: Promise<Answer>, what: string): Promise<Answer> {
  const done = await answer;
  if (!done.ok) throw new Stuck(`${what}: ${done.text.split('\n').at(-1)}`);
  return done;
}

async function look(t: BrowserToolHands, path: string, url: (page: string) => string): Promise<Snapshot> {
  await must(t.navigate(url(path)), 'navigate');
  return t.snapshot();
}

const button = (s: Snapshot, name: string): Target => need(s.find('button', name), `button "${name}"`);
const textbox = (s: Snapshot, name: string): Target => need(s.find('textbox', name), `textbox "${name}"`);

export const TASKS: readonly WebTask[] = [
  {
    id: 'form-select-combobox',
    category: 'forms',
    async solve(t, url) {
      let s = await look(t, 'form-select-combobox.html', url);
      await must(t.select(need(s.find('combobox', 'Country'), 'country'), ['Canada']), 'country');
      await must(t.select(need(s.find('combobox', 'State'), 'state'), ['Ontario']), 'state');
      s = await t.snapshot();
      await must(t.click(button(s, 'Save address')), 'save');
    },
  },
  {
    id: 'multi-select',
    category: 'forms',
    async solve(t, url) {
      const s = await look(t, 'multi-select.html', url);
      await must(t.select(need(s.find('listbox', 'Topics'), 'topics'), ['Science', 'Travel']), 'topics');
      await must(t.click(button(s, 'Subscribe')), 'subscribe');
    },
  },
  {
    id: 'date-time',
    category: 'forms',
    async solve(t, url) {
      const s = await look(t, 'date-time.html', url);
      await must(t.type(textbox(s, 'Date'), '03/31/2010'), 'date');
      await must(t.type(textbox(s, 'Time'), '10:22 PM'), 'time');
      await must(t.click(button(s, 'Book')), 'book');
    },
  },
  {
    id: 'readonly-field',
    category: 'forms',
    async solve(t, url) {
      let s = await look(t, 'readonly-field.html', url);
      const typed = await t.type(textbox(s, 'Nickname'), 'Ziggy');
      if (!typed.ok) {
        // A model that is told the field is read-only looks for what makes it editable.
        if (!typed.text.includes('read-only')) throw new Stuck(`type: ${typed.text.split('\n').at(-1)}`);
        await must(t.click(button(s, 'Edit nickname')), 'edit');
        s = await t.snapshot();
        await must(t.type(textbox(s, 'Nickname'), 'Ziggy'), 'type again');
      }
      await must(t.click(button(s, 'Save')), 'save');
    },
  },
  {
    id: 'datalist',
    category: 'forms',
    async solve(t, url) {
      const s = await look(t, 'datalist.html', url);
      await must(t.type(need(s.find('combobox', 'Browser'), 'browser field'), 'Firefox'), 'browser');
      await must(t.click(button(s, 'Send')), 'send');
    },
  },
  {
    id: 'slider-native',
    category: 'widgets',
    async solve(t, url) {
      const s = await look(t, 'slider-native.html', url);
      await must(t.type(need(s.find('slider', 'Volume'), 'volume slider'), '70'), 'volume');
      await must(t.click(button(s, 'Apply')), 'apply');
    },
  },
  {
    id: 'slider-aria',
    category: 'widgets',
    async solve(t, url) {
      const s = await look(t, 'slider-aria.html', url);
      await must(t.type(need(s.find('slider', 'Rating'), 'rating slider'), '8'), 'rating');
      await must(t.click(button(s, 'Submit rating')), 'submit');
    },
  },
  {
    id: 'autocomplete',
    category: 'widgets',
    async solve(t, url) {
      const s = await look(t, 'autocomplete.html', url);
      await must(t.select(need(s.find('combobox', 'City'), 'city'), ['Berlin']), 'city');
      await must(t.click(button(s, 'Go')), 'go');
    },
  },
  {
    id: 'listbox-custom',
    category: 'widgets',
    async solve(t, url) {
      const s = await look(t, 'listbox-custom.html', url);
      await must(t.select(need(s.find('listbox', 'Size'), 'size'), ['Large']), 'size');
      await must(t.click(button(s, 'Add to bag')), 'add');
    },
  },
  {
    id: 'spinbutton',
    category: 'widgets',
    async solve(t, url) {
      const s = await look(t, 'spinbutton.html', url);
      await must(t.type(need(s.find('spinbutton', 'Tickets'), 'tickets'), '5'), 'tickets');
      await must(t.click(button(s, 'Buy')), 'buy');
    },
  },
  {
    id: 'hover-menu',
    category: 'pointer',
    async solve(t, url) {
      await look(t, 'hover-menu.html', url);
      await must(t.hover({ text: 'Departments' }), 'hover');
      const s = await t.snapshot();
      await must(t.click(need(s.find('link', 'Laptops'), 'Laptops link')), 'laptops');
    },
  },
  {
    id: 'drag-sortable',
    category: 'pointer',
    async solve(t, url) {
      const s = await look(t, 'drag-sortable.html', url);
      await must(t.drag(need(s.withText('listitem', 'Deploy'), 'Deploy'), need(s.withText('listitem', 'Write code'), 'Write code')), 'drag');
    },
  },
  {
    id: 'drag-dropzone',
    category: 'pointer',
    async solve(t, url) {
      const s = await look(t, 'drag-dropzone.html', url);
      await must(t.drag(need(s.withText('generic', 'Fix login bug'), 'the card'), need(s.find('region', 'Done column'), 'the Done column')), 'drag');
    },
  },
  {
    id: 'double-click',
    category: 'pointer',
    async solve(t, url) {
      const s = await look(t, 'double-click.html', url);
      await must(t.click(need(s.withText('listitem', 'Groceries'), 'Groceries'), { double: true }), 'double-click');
      let edit = await t.snapshot();
      if (edit.find('textbox', 'Note title') === null) {
        // Nothing opened: the title itself, not its row, takes the double click.
        await must(t.click({ text: 'Groceries' }, { double: true }), 'double-click the title');
        edit = await t.snapshot();
      }
      await must(t.type(textbox(edit, 'Note title'), 'Shopping', true), 'rename');
    },
  },
  {
    id: 'context-menu',
    category: 'pointer',
    async solve(t, url) {
      const s = await look(t, 'context-menu.html', url);
      await must(t.click(need(s.withText('listitem', 'report.pdf'), 'report.pdf'), { button: 'right' }), 'right-click');
      const menu = await t.snapshot();
      await must(t.click(need(menu.find('menuitem', 'Delete'), 'Delete')), 'delete');
    },
  },
  {
    id: 'ctrl-click',
    category: 'pointer',
    async solve(t, url) {
      const s = await look(t, 'ctrl-click.html', url);
      await must(t.click(need(s.withText('listitem', 'From Ann: lunch?'), 'Ann')), 'Ann');
      await must(t.click(need(s.withText('listitem', 'From Carl: tickets'), 'Carl'), { modifiers: ['Control'] }), 'Carl');
      await must(t.click(button(s, 'Archive')), 'archive');
    },
  },
  {
    id: 'canvas-click',
    category: 'pointer',
    async solve(t, url) {
      await look(t, 'canvas-click.html', url);
      // The marker is red on the screenshot: its centre is where to click.
      const shot = need(await t.screenshot(), 'screenshot');
      let [sx, sy, n] = [0, 0, 0];
      for (let y = 0; y < shot.height; y++) {
        for (let x = 0; x < shot.width; x++) {
          const i = (y * shot.width + x) * 4;
          if (shot.data[i]! > 220 && shot.data[i + 1]! < 40 && shot.data[i + 2]! < 40) [sx, sy, n] = [sx + x, sy + y, n + 1];
        }
      }
      if (n === 0) throw new Stuck('no red marker on the screenshot');
      await must(t.clickAt(Math.round(sx / n), Math.round(sy / n)), 'click the marker');
    },
  },
  {
    id: 'icon-buttons',
    category: 'pointer',
    async solve(t, url) {
      const s = await look(t, 'icon-buttons.html', url);
      // The second message's star: the snapshot describes each icon by its class.
      await must(t.click(need(s.byHint('"star"', 1), 'the second star')), 'star');
    },
  },
  {
    id: 'covered-button',
    category: 'pointer',
    async solve(t, url) {
      const s = await look(t, 'covered-button.html', url);
      const first = await t.click(button(s, 'Subscribe'));
      if (first.ok) return;
      if (!first.text.includes('covered')) throw new Stuck(`subscribe: ${first.text.split('\n').at(-1)}`);
      await must(t.click(button(s, 'Accept cookies')), 'accept cookies');
      await must(t.click(button(await t.snapshot(), 'Subscribe')), 'subscribe');
    },
  },
  {
    id: 'new-tab',
    category: 'tabs',
    async solve(t, url) {
      const s = await look(t, 'new-tab.html', url);
      const opened = await must(t.click(need(s.find('link', 'Read the terms'), 'terms link')), 'open terms');
      if (!opened.text.includes('title: Terms')) throw new Stuck('the terms did not show');
      const version = need(/Version: (\S+)/.exec((await t.readText()).text)?.[1], 'the version');
      await must(t.tab(0), 'back to the form');
      await must(t.type(textbox(s, 'Terms version'), version), 'version');
      await must(t.click(button(s, 'Agree')), 'agree');
    },
  },
  {
    id: 'popup-signin',
    category: 'tabs',
    async solve(t, url) {
      const s = await look(t, 'popup-signin.html', url);
      const opened = await must(t.click(button(s, 'Sign in with Example')), 'sign in');
      if (!opened.text.includes('title: Example sign-in')) throw new Stuck('the sign-in window did not show');
      const form = await t.snapshot();
      await must(t.type(textbox(form, 'Username'), 'robin'), 'username');
      await must(t.click(button(form, 'Continue')), 'continue');
    },
  },
  {
    id: 'back-navigation',
    category: 'tabs',
    async solve(t, url) {
      const s = await look(t, 'back-navigation.html', url);
      await must(t.click(need(s.find('link', 'Lamp'), 'Lamp link')), 'lamp');
      const price = need(/Price: \$?(\d+)/.exec((await t.readText()).text)?.[1], 'the price');
      if (!(await t.back()).ok) await must(t.navigate(url('back-navigation.html')), 'navigate back');
      const again = await t.snapshot();
      await must(t.type(textbox(again, 'Lamp price'), price), 'price');
      await must(t.click(button(again, 'Check')), 'check');
    },
  },
  {
    id: 'tabs-switch',
    category: 'tabs',
    async solve(t, url) {
      const s = await look(t, 'tabs-switch.html', url);
      const offers: { code: string; price: number }[] = [];
      for (const name of ['Offer A', 'Offer B']) {
        await must(t.tab(0), 'the first tab');
        await must(t.click(need(s.find('link', name), name)), name);
        const page = (await t.readText()).text;
        offers.push({ code: need(/Code: (\S+)/.exec(page)?.[1], 'a code'), price: Number(need(/Price: (\d+)/.exec(page)?.[1], 'a price')) });
      }
      await must(t.tab(0), 'the first tab');
      const cheaper = offers.sort((a, b) => a.price - b.price)[0]!;
      await must(t.type(textbox(s, 'Code'), cheaper.code), 'code');
      await must(t.click(button(s, 'Claim')), 'claim');
    },
  },
  {
    id: 'confirm-delete',
    category: 'dialogs',
    async solve(t, url) {
      const s = await look(t, 'confirm-delete.html', url);
      const asked = await must(t.click(button(s, 'Delete')), 'delete');
      if (asked.text.includes('DIALOG')) await must(t.dialog(true), 'confirm');
    },
  },
  {
    id: 'prompt-name',
    category: 'dialogs',
    async solve(t, url) {
      const s = await look(t, 'prompt-name.html', url);
      await must(t.click(button(s, 'New folder')), 'new folder');
      await must(t.dialog(true, 'Taxes'), 'name the folder');
    },
  },
  {
    id: 'alert-continue',
    category: 'dialogs',
    async solve(t, url) {
      const s = await look(t, 'alert-continue.html', url);
      const saved = await must(t.click(button(s, 'Save draft')), 'save');
      if (saved.text.includes('DIALOG')) await must(t.dialog(true), 'acknowledge');
      await must(t.click(button(await t.snapshot(), 'Publish')), 'publish');
    },
  },
  {
    id: 'iframe-form',
    category: 'frames',
    async solve(t, url) {
      const s = await look(t, 'iframe-form.html', url);
      await must(t.type(textbox(s, 'Message'), 'Hello'), 'message');
      await must(t.click(button(s, 'Send')), 'send');
    },
  },
  {
    id: 'iframe-cross',
    category: 'frames',
    async solve(t, url) {
      const s = await look(t, 'iframe-cross.html', url);
      await must(t.type(textbox(s, 'Card number'), '4242 4242 4242 4242'), 'card');
      await must(t.click(button(s, 'Pay')), 'pay');
    },
  },
  {
    id: 'shadow-widget',
    category: 'frames',
    async solve(t, url) {
      const s = await look(t, 'shadow-widget.html', url);
      await must(t.type(textbox(s, 'Chat message'), 'Hi there'), 'message');
      await must(t.click(button(s, 'Send chat')), 'send');
    },
  },
  {
    id: 'long-page',
    category: 'scrolling',
    async solve(t, url) {
      await look(t, 'long-page.html', url);
      await must(t.scrollTo('I accept the final terms'), 'scroll');
      await must(t.click(button(await t.snapshot(), 'I accept the final terms')), 'accept');
    },
  },
  {
    id: 'infinite-scroll',
    category: 'scrolling',
    async solve(t, url) {
      await look(t, 'infinite-scroll.html', url);
      await must(t.scrollTo('Like Sunset over the bay'), 'scroll');
      await must(t.click(button(await t.snapshot(), 'Like Sunset over the bay')), 'like');
    },
  },
  {
    id: 'inner-scroll',
    category: 'scrolling',
    async solve(t, url) {
      const s = await look(t, 'inner-scroll.html', url);
      await must(t.scrollTo('Beta features'), 'scroll');
      const near = await t.snapshot();
      await must(t.click(need(near.find('checkbox', 'Beta features'), 'the Beta checkbox')), 'beta');
      void s;
    },
  },
  {
    id: 'wait-for-text',
    category: 'scrolling',
    async solve(t, url) {
      const s = await look(t, 'wait-for-text.html', url);
      await must(t.click(button(s, 'Generate report')), 'generate');
      await must(t.waitFor('Report ready'), 'wait');
      await must(t.click(button(await t.snapshot(), 'Download report')), 'download');
    },
  },
  {
    id: 'stale-reference',
    category: 'scrolling',
    async solve(t, url) {
      const s = await look(t, 'stale-reference.html', url);
      // The model takes its time: by then the list has been drawn anew under the snapshot it read.
      await must(t.waitFor('Results refreshed'), 'wait');
      const first = await t.click(button(s, 'Gamma'));
      if (first.ok) return;
      // A stale reference says to look again.
      if (!first.text.includes('stale')) throw new Stuck(`click: ${first.text.split('\n').at(-1)}`);
      await must(t.click(button(await t.snapshot(), 'Gamma')), 'click again');
    },
  },
  {
    id: 'key-chord',
    category: 'keyboard',
    async solve(t, url) {
      const s = await look(t, 'key-chord.html', url);
      const editor = textbox(s, 'Editor');
      await must(t.click(editor), 'focus');
      await must(t.press('Control+A'), 'select all');
      await must(t.press('Delete'), 'delete');
      await must(t.type(editor, 'Final draft'), 'type');
      await must(t.click(button(s, 'Save')), 'save');
    },
  },
  {
    id: 'escape-modal',
    category: 'keyboard',
    async solve(t, url) {
      const s = await look(t, 'escape-modal.html', url);
      await must(t.press('Escape'), 'escape');
      await must(t.click(button(s, 'Add mug to cart')), 'add');
    },
  },
];
