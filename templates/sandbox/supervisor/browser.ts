import { mkdtemp, rm } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import type { BrowserRequest, BrowserResult, PageProblem } from '../../../src/sandbox/protocol.js';
import { truncateMiddle } from './capped-text.js';
import { captchaProblem, navigationProblem, statusProblem } from './page-problem.js';
import { fillSecretReferences } from './secret-references.js';

export const TEXT_LIMIT = 20_000;
const NAVIGATION_TIMEOUT_MS = 30_000;
const ACTION_TIMEOUT_MS = 5_000;
const SETTLE_TIMEOUT_MS = 5_000;
/**
 * Chromium makes Unix sockets under TMPDIR, and leaves them behind. A socket path may not exceed 107 bytes while
 * a sandbox's own TMPDIR can be deep in the data directory, so Chromium gets a short directory of its own.
 */
const SOCKET_DIR_PREFIX = '/tmp/errand-browser-';
const VIEWPORT = { width: 1280, height: 800 };
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  '--disable-default-apps',
  '--disable-breakpad',
  '--metrics-recording-only',
];

interface Outcome {
  text: string;
  problem?: PageProblem;
  screenshot?: string;
}

/**
 * One Chromium with one page, launched on the first action with a fresh profile (Playwright's own temporary
 * directory, removed on close). Actions run one at a time, in arrival order, since they share the page.
 */
export class BrowserSession {
  private browser: Browser | null = null;
  private page: Page | null = null;
  private status: number | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  private socketDir: string | null = null;

  constructor(private readonly executablePath: string) {}

  get launched(): boolean {
    return this.browser !== null;
  }

  run(action: BrowserRequest): Promise<BrowserResult> {
    const result = this.queue.then(() => this.perform(action));
    this.queue = result.catch(() => undefined);
    return result;
  }

  async close(): Promise<void> {
    this.closed = true;
    const browser = this.browser;
    this.browser = null;
    this.page = null;
    await browser?.close().catch(() => undefined);
    if (this.socketDir !== null) await rm(this.socketDir, { recursive: true, force: true });
  }

  private async perform(action: BrowserRequest): Promise<BrowserResult> {
    let page: Page;
    try {
      page = await this.openPage();
    } catch (error) {
      const text = `the browser could not start: ${firstLine(error)}`;
      return { ok: false, text, url: null, title: null, status: null, problem: null, screenshot: null };
    }
    let outcome: Outcome;
    try {
      outcome = await this.act(page, action);
    } catch (error) {
      if (action.action === 'navigate') {
        this.status = null;
        const outcome = { text: `could not load ${action.url}`, problem: navigationProblem(error) };
        return { ...(await this.result(page, outcome)), url: action.url, title: null };
      }
      outcome = { text: `${action.action} failed: ${firstLine(error)}` };
      return { ...(await this.result(page, outcome)), ok: false };
    }
    const problem = outcome.problem ?? statusProblem(this.status) ?? (await captchaProblem(page));
    return this.result(page, { ...outcome, ...(problem === null ? {} : { problem }) });
  }

  private async act(page: Page, action: BrowserRequest): Promise<Outcome> {
    switch (action.action) {
      case 'navigate': {
        const response = await page.goto(action.url, { waitUntil: 'domcontentloaded', timeout: NAVIGATION_TIMEOUT_MS });
        this.status = response?.status() ?? this.status;
        return { text: `navigated to ${page.url()} (HTTP ${this.status ?? 'unknown'})` };
      }
      case 'click': {
        const target =
          action.selector !== undefined
            ? page.locator(action.selector)
            : action.text !== undefined
              ? page.getByText(action.text)
              : null;
        if (target === null) throw new Error('click needs a selector or a text');
        await target.first().click({ timeout: ACTION_TIMEOUT_MS });
        await settle(page);
        return { text: `clicked ${action.selector ?? JSON.stringify(action.text)}` };
      }
      case 'type': {
        // Secrets go in here, at the last moment; the outcome says where it typed, never what.
        await page.fill(action.selector, fillSecretReferences(action.text, action.secrets ?? {}), { timeout: ACTION_TIMEOUT_MS });
        if (action.submit === true) {
          await page.press(action.selector, 'Enter', { timeout: ACTION_TIMEOUT_MS });
          await settle(page);
        }
        return { text: `typed into ${action.selector}${action.submit === true ? ' and submitted' : ''}` };
      }
      case 'press':
        await page.keyboard.press(action.key);
        await settle(page);
        return { text: `pressed ${action.key}` };
      case 'scroll': {
        const delta = (action.amount ?? VIEWPORT.height) * (action.direction === 'up' ? -1 : 1);
        const y = await page.evaluate((dy) => {
          window.scrollBy(0, dy);
          return window.scrollY;
        }, delta);
        return { text: `scrolled ${action.direction}; now at y=${Math.round(y)}` };
      }
      case 'read_text':
        return { text: await page.evaluate(() => document.body?.innerText ?? '') };
      case 'snapshot':
        return { text: await page.locator('body').ariaSnapshot({ timeout: ACTION_TIMEOUT_MS }) };
      case 'screenshot': {
        const png = await page.screenshot({ type: 'png', timeout: NAVIGATION_TIMEOUT_MS });
        return { text: 'screenshot of the viewport', screenshot: png.toString('base64') };
      }
      default: {
        const unreachable: never = action;
        throw new Error(`unknown action ${JSON.stringify(unreachable)}`);
      }
    }
  }

  private async openPage(): Promise<Page> {
    if (this.closed) throw new Error('the browser is shut down');
    if (this.page !== null && !this.page.isClosed()) return this.page;
    if (this.browser === null) {
      this.socketDir ??= await mkdtemp(SOCKET_DIR_PREFIX);
      // Loaded on first use: it is slow to import, and many runs never open the browser.
      const { chromium } = await import('playwright-core');
      this.browser = await chromium.launch({
        executablePath: this.executablePath,
        headless: true,
        args: CHROMIUM_ARGS,
        env: { ...process.env, TMPDIR: this.socketDir },
      });
    }
    const context = await this.browser.newContext({ viewport: VIEWPORT });
    const page = await context.newPage();
    page.on('response', (response) => {
      if (response.request().isNavigationRequest() && response.frame() === page.mainFrame()) this.status = response.status();
    });
    this.page = page;
    this.status = null;
    return page;
  }

  private async result(page: Page, outcome: Outcome): Promise<BrowserResult> {
    const url = page.url();
    return {
      ok: outcome.problem === undefined,
      text: truncateMiddle(outcome.text, TEXT_LIMIT),
      url: url === 'about:blank' ? null : url,
      title: (await page.title().catch(() => '')) || null,
      status: this.status,
      problem: outcome.problem ?? null,
      screenshot: outcome.screenshot ?? null,
    };
  }
}

/** Lets a navigation that an action started reach its first paint before the result describes the page. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('domcontentloaded', { timeout: SETTLE_TIMEOUT_MS }).catch(() => undefined);
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}
