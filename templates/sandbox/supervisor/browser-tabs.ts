import type { BrowserContext, Dialog, Page } from 'playwright-core';
import type { BrowserTab, PageDialog } from '../../../src/sandbox/protocol.js';

/** A title read while a dialog holds its page may not come: the tab is listed without one rather than wait. */
const TITLE_TIMEOUT_MS = 500;

/**
 * The browser's tabs: every page the context opens (a new tab, a popup, an OAuth window) in the order they opened,
 * and the current one, which actions go to and the live view shows. A page the current tab opens becomes current,
 * as a person's browser shows it; when the current tab closes (a sign-in popup that closes itself), its opener, or
 * else the last tab, becomes current. A page's `alert`, `confirm`, `prompt` or `beforeunload` stays open until the
 * agent answers it (`dialog`), as it would for a person.
 */
export class BrowserTabs {
  private pages: Page[] = [];
  private currentPage: Page | null = null;
  private readonly openers = new WeakMap<Page, Page>();
  private readonly dialogs = new Map<Page, Dialog>();
  private readonly dialogWaiters = new Set<() => void>();
  private readonly pageWaiters = new Set<() => void>();
  private readonly changeListeners = new Set<() => void>();
  private readonly currentListeners = new Set<(page: Page) => void>();
  /** Page events still being handled (an opener is looked up asynchronously). */
  private adding: Promise<void> = Promise.resolve();
  /** Pages the tabs' documents asked to open, and pages added: see `opened`. */
  private asked = 0;
  private added = 0;

  /** Follows `context`'s pages from now on, those open already first; `setUp` prepares each (downloads, status). */
  follow(context: BrowserContext, setUp: (page: Page) => void): void {
    const add = (page: Page): void => {
      setUp(page);
      const known = this.pages.includes(page);
      this.track(page);
      if (!known) this.adding = this.adding.then(() => this.add(page)).catch(() => undefined);
    };
    context.pages().forEach(add);
    context.on('page', add);
  }

  /** The browser went away: no tabs until it is launched again. */
  reset(): void {
    this.pages = [];
    this.currentPage = null;
    this.dialogs.clear();
    this.changed();
  }

  get current(): Page | null {
    return this.currentPage !== null && !this.currentPage.isClosed() ? this.currentPage : null;
  }

  /** Makes `page` current (a page the session opened itself). */
  use(page: Page): void {
    this.track(page);
    this.makeCurrent(page);
  }

  /** Calls `listener` with each page that becomes current; answers the way to stop. */
  onCurrent(listener: (page: Page) => void): () => void {
    this.currentListeners.add(listener);
    return () => this.currentListeners.delete(listener);
  }

  /** Calls `listener` whenever a tab opens, closes or becomes current; answers the way to stop. */
  onChange(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** Resolves once the page events that arrived so far are handled. */
  settled(): Promise<void> {
    return this.adding;
  }

  /** Where the counts of pages asked for and opened stand: `opened` waits from such a mark. */
  mark(): { asked: number; added: number } {
    return { asked: this.asked, added: this.added };
  }

  /**
   * Resolves once every page asked for since `since` (by window.open, a link to a new tab, a form with a target:
   * CDP's Page.windowOpen, sent before the click that asked is done) has opened and been handled, or after `ms`.
   * A click's new tab arrives a little after the click itself; an action that asked for none does not wait.
   */
  async opened(since: { asked: number; added: number }, ms: number): Promise<void> {
    const waiting = (): boolean => this.added - since.added < this.asked - since.asked;
    if (waiting()) {
      let done: () => void = () => undefined;
      const arrived = new Promise<void>((resolve) => {
        done = resolve;
      });
      const check = (): void => {
        if (!waiting()) done();
      };
      this.pageWaiters.add(check);
      const timer = setTimeout(done, ms);
      await arrived;
      clearTimeout(timer);
      this.pageWaiters.delete(check);
    }
    await this.adding;
  }

  async list(): Promise<BrowserTab[]> {
    return Promise.all(
      this.pages.map(async (page, index) => {
        const url = page.url();
        return { index, url: url === 'about:blank' ? null : url, title: await this.titleOf(page), current: page === this.current };
      }),
    );
  }

  /** The page's title, or null when it has none or does not answer soon (a dialog holds it). */
  async titleOf(page: Page): Promise<string | null> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve(''), TITLE_TIMEOUT_MS);
    });
    const title = await Promise.race([page.title().catch(() => ''), late]);
    clearTimeout(timer);
    return title === '' ? null : title;
  }

  /** Makes the tab at `index` current; answers what is wrong instead when there is none. */
  select(index: number): string | null {
    const page = this.pages[index];
    if (page === undefined) return this.noTab(index);
    this.makeCurrent(page);
    return null;
  }

  /**
   * Closes the tab at `index`, letting its page ask first (`beforeunload`): then it stays open with the dialog, which
   * the answer settles. Answers what is wrong instead, or null.
   */
  async close(index: number): Promise<string | null> {
    const page = this.pages[index];
    if (page === undefined) return this.noTab(index);
    let stop: () => void = () => undefined;
    const settled = new Promise<void>((resolve) => {
      page.once('close', () => resolve());
      stop = this.whenDialog(page, resolve);
    });
    await page.close({ runBeforeUnload: true });
    await settled;
    stop();
    return null;
  }

  /** The dialog `page` shows and waits on, or null. */
  dialogOf(page: Page): PageDialog | null {
    const dialog = this.dialogs.get(page);
    return dialog === undefined ? null : { type: dialog.type() as PageDialog['type'], message: dialog.message(), defaultValue: dialog.defaultValue() };
  }

  /** Answers `page`'s dialog; false when it shows none. */
  async answer(page: Page, accept: boolean, text: string | undefined): Promise<boolean> {
    const dialog = this.dialogs.get(page);
    if (dialog === undefined) return false;
    this.dialogs.delete(page);
    if (accept) await dialog.accept(text).catch(() => undefined);
    else await dialog.dismiss().catch(() => undefined);
    return true;
  }

  /** Calls `listener` once `page` shows a dialog (at once when it shows one already); answers the way to stop. */
  whenDialog(page: Page, listener: () => void): () => void {
    if (this.dialogs.has(page)) {
      listener();
      return () => undefined;
    }
    const check = (): void => {
      if (!this.dialogs.has(page)) return;
      this.dialogWaiters.delete(check);
      listener();
    };
    this.dialogWaiters.add(check);
    return () => this.dialogWaiters.delete(check);
  }

  /** Lists `page` as a tab and listens to it; idempotent. */
  private track(page: Page): void {
    if (this.pages.includes(page) || page.isClosed()) return;
    this.pages.push(page);
    page.on('dialog', (dialog) => {
      this.dialogs.set(page, dialog);
      for (const waiter of [...this.dialogWaiters]) waiter();
    });
    page.once('close', () => this.remove(page));
    void page
      .context()
      .newCDPSession(page)
      .then(async (cdp) => {
        cdp.on('Page.windowOpen', () => {
          this.asked += 1;
        });
        await cdp.send('Page.enable');
      })
      .catch(() => undefined);
  }

  /** A page the context opened: it becomes current when the current tab opened it (or none is current). */
  private async add(page: Page): Promise<void> {
    const opener = page.isClosed() ? null : await page.opener().catch(() => null);
    this.added += 1;
    if (opener !== null) this.openers.set(page, opener);
    if (!page.isClosed()) {
      if (this.current === null || (opener !== null && opener === this.current)) this.makeCurrent(page);
      else this.changed();
    }
    for (const waiter of [...this.pageWaiters]) waiter();
  }

  private remove(page: Page): void {
    this.pages = this.pages.filter((open) => open !== page);
    this.dialogs.delete(page);
    if (this.currentPage !== page) return this.changed();
    const opener = this.openers.get(page);
    const next = opener !== undefined && this.pages.includes(opener) ? opener : this.pages.at(-1);
    this.currentPage = null;
    if (next !== undefined) this.makeCurrent(next);
    else this.changed();
  }

  private makeCurrent(page: Page): void {
    const before = this.currentPage;
    this.currentPage = page;
    if (before !== page) {
      // A background tab gets no frames and runs its timers slowly: the current one is brought to the front.
      void page.bringToFront().catch(() => undefined);
      for (const listener of this.currentListeners) listener(page);
    }
    this.changed();
  }

  private changed(): void {
    for (const listener of this.changeListeners) listener();
  }

  private noTab(index: number): string {
    return `there is no tab ${index}; the tabs are 0 to ${this.pages.length - 1}`;
  }
}
