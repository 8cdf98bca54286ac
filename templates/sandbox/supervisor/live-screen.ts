import type { CDPSession, Page } from 'playwright-core';
import type { LiveFrame, LiveInput, LiveTabs } from '../../../src/sandbox/protocol.js';
import type { BrowserSession } from './browser.js';
import { BadRequest } from './request-validation.js';

/** What a watcher is sent: one server-sent event, already framed. */
export type LiveEventSink = (event: string) => void;

/** The screencast's JPEG quality: frames of a 1280x800 page at 60 are 40-120 kB, fine on loopback and a LAN. */
const JPEG_QUALITY = 60;
const WAITING_EVENT = 'event: waiting\ndata: {}\n\n';

/** There is no page to send input to yet (or any more); answered with 409. */
export class NoPageError extends Error {}

/**
 * The live view of the session's page: a CDP screencast on a CDP session of its own (another consumer, such as a
 * recording, keeps its own session and screencast), running only while someone watches, and the person's input
 * through CDP's Input domain on the same session. Frames are acknowledged as they arrive, so Chromium sends the
 * next one as soon as the page changes; a watcher that cannot keep up loses frames (see `server.ts`), never the
 * others' or the agent's time.
 */
export class LiveScreen {
  private readonly watchers = new Set<LiveEventSink>();
  private session: { page: Page; cdp: CDPSession } | null = null;
  private opening: Promise<{ page: Page; cdp: CDPSession }> | null = null;
  /** The last frame, for a watcher who joins while the page is still: Chromium sends frames only on change. */
  private last: string | null = null;

  constructor(private readonly browser: BrowserSession) {
    // The live view follows the tab the agent is on, and lists the tabs for a person who takes over.
    browser.onPage((page) => {
      if (this.watchers.size > 0) void this.startOn(page);
    });
    browser.onTabs(() => {
      if (this.watchers.size > 0) void this.sendTabs();
    });
  }

  get watching(): number {
    return this.watchers.size;
  }

  /** Adds a watcher: it gets the last frame (or `waiting`) at once, then every new frame. Answers the way to leave. */
  watch(sink: LiveEventSink): () => void {
    this.watchers.add(sink);
    sink(this.last ?? WAITING_EVENT);
    void this.sendTabs(sink);
    if (this.watchers.size === 1) {
      const page = this.browser.currentPage;
      if (page !== null) void this.startOn(page);
    }
    return () => {
      if (!this.watchers.delete(sink) || this.watchers.size > 0) return;
      void this.stop();
    };
  }

  /** Hands a person's input to the page. Throws `NoPageError` while the browser has no page. */
  async input(input: LiveInput): Promise<void> {
    if (input.type === 'tab') {
      const wrong = await this.browser.selectTab(input.index);
      if (wrong !== null) throw new BadRequest(wrong);
      return;
    }
    const page = this.browser.currentPage;
    if (page === null) throw new NoPageError('the browser has no page open yet');
    this.browser.noteInput();
    const { cdp } = await this.sessionFor(page);
    switch (input.type) {
      case 'mouse':
        await cdp.send('Input.dispatchMouseEvent', {
          type: input.event,
          x: input.x,
          y: input.y,
          button: input.button,
          clickCount: input.clickCount,
          modifiers: input.modifiers,
        });
        return;
      case 'wheel':
        await cdp.send('Input.dispatchMouseEvent', { type: 'mouseWheel', x: input.x, y: input.y, deltaX: input.deltaX, deltaY: input.deltaY, modifiers: input.modifiers });
        return;
      case 'key':
        await cdp.send('Input.dispatchKeyEvent', {
          // A key with no text (arrows, Backspace) is a raw key down: with `keyDown` Chromium would also type nothing.
          type: input.event === 'keyDown' && input.text === '' ? 'rawKeyDown' : input.event,
          key: input.key,
          code: input.code,
          windowsVirtualKeyCode: input.keyCode,
          ...(input.text === '' ? {} : { text: input.text, unmodifiedText: input.text }),
          modifiers: input.modifiers,
        });
        return;
      case 'text':
        await cdp.send('Input.insertText', { text: input.text });
        return;
      default: {
        const unknown: never = input;
        throw new Error(`unknown input ${JSON.stringify(unknown)}`);
      }
    }
  }

  /** The tabs, to one watcher or all: sent when one joins and when they change. */
  private async sendTabs(to?: LiveEventSink): Promise<void> {
    const body: LiveTabs = { tabs: await this.browser.listTabs() };
    const event = `event: tabs\ndata: ${JSON.stringify(body)}\n\n`;
    if (to !== undefined) {
      if (this.watchers.has(to)) to(event);
      return;
    }
    for (const watcher of this.watchers) watcher(event);
  }

  private async startOn(page: Page): Promise<void> {
    try {
      const { cdp } = await this.sessionFor(page);
      await startScreencast(cdp);
    } catch {
      // The page closed under us; the next page the session opens starts it again.
    }
  }

  private async stop(): Promise<void> {
    const session = this.session;
    if (session === null) return;
    await session.cdp.send('Page.stopScreencast').catch(() => undefined);
  }

  private async sessionFor(page: Page): Promise<{ page: Page; cdp: CDPSession }> {
    if (this.session?.page === page) return this.session;
    if (this.opening !== null) {
      const opened = await this.opening;
      if (opened.page === page) return opened;
    }
    this.opening = this.open(page);
    try {
      return await this.opening;
    } finally {
      this.opening = null;
    }
  }

  private async open(page: Page): Promise<{ page: Page; cdp: CDPSession }> {
    const previous = this.session;
    this.session = null;
    this.last = null;
    await previous?.cdp.detach().catch(() => undefined);
    const cdp = await page.context().newCDPSession(page);
    cdp.on('Page.screencastFrame', (frame) => {
      void cdp.send('Page.screencastFrameAck', { sessionId: frame.sessionId }).catch(() => undefined);
      const body: LiveFrame = {
        jpeg: frame.data,
        width: frame.metadata.deviceWidth,
        height: frame.metadata.deviceHeight,
        // The codes typed show as [totp:<name>] (a form that sent one in its query), the saved login's values as
        // [login:<name>]; the daemon masks the run's secrets.
        url: page.isClosed() ? null : this.browser.codes.text(page.url()),
      };
      this.last = `event: frame\ndata: ${JSON.stringify(body)}\n\n`;
      for (const watcher of this.watchers) watcher(this.last);
    });
    // A screencast started while a navigation commits (a new renderer taking over the page) can be lost, and a
    // still page sends no frame of its own: each navigation of the main frame, and each load, starts it again while
    // someone watches (a start sends the page as it is).
    const restart = (): void => {
      if (this.watchers.size > 0 && this.session?.cdp === cdp) void startScreencast(cdp).catch(() => undefined);
    };
    page.on('framenavigated', (navigated) => {
      if (navigated === page.mainFrame()) restart();
    });
    page.on('domcontentloaded', restart);
    page.on('load', restart);
    const session = { page, cdp };
    this.session = session;
    return session;
  }
}

function startScreencast(cdp: CDPSession): Promise<unknown> {
  return cdp.send('Page.startScreencast', { format: 'jpeg', quality: JPEG_QUALITY, everyNthFrame: 1 });
}
