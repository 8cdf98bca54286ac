import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import type { BrowserRequest, BrowserResult, MaskForm, PageProblem, RecordingResult, TotpSeed } from '../../../src/sandbox/protocol.js';
import { truncateMiddle } from './capped-text.js';
import type { EgressProxy } from './egress-proxy.js';
import { captchaProblem, navigationProblem, statusProblem } from './page-problem.js';
import type { InputFiles } from './input-files.js';
import type { Recording } from './recording.js';
import type { RunOutputs } from './run-outputs.js';
import { fillSecretReferences } from './secret-references.js';
import { totpCode, typingTime } from './totp-code.js';
import { fillTotpReferences, totpReferenceNames } from './totp-references.js';
import { TypedCodes } from './typed-codes.js';
import { uniqueRoleSelector } from './role-selector.js';
import { runAs, type TaskUser } from './task-user.js';

export const TEXT_LIMIT = 20_000;
const NAVIGATION_TIMEOUT_MS = 30_000;
const ACTION_TIMEOUT_MS = 5_000;
const SETTLE_TIMEOUT_MS = 5_000;
/**
 * Chromium's directory: its profile, and its TMPDIR, where it makes Unix sockets and leaves them behind. A socket
 * path may not exceed 107 bytes while a sandbox's own TMPDIR can be deep in the data directory, so Chromium gets a
 * short directory of its own, made by the task user, whom Chromium runs as.
 */
const BROWSER_DIR_TEMPLATE = '/tmp/errand-browser-XXXXXX';
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

/**
 * Chromium's own traffic, which would go out through the run's proxy beside the run's pages: the component and
 * extension updaters, push messaging's check-in, the services that fill forms, hint at optimisations and check for
 * unsafe sites, and its sign-in check (ListAccounts, sent to the GAIA URL, pointed here at a host that cannot exist).
 * With a proxy they are sent around it, to a resolver that finds nothing, so they go nowhere; a test's proxy log
 * shows any new one. A page that opens accounts.google.com is not affected: only the browser's own sign-in uses the
 * GAIA URL.
 */
const BROWSER_SERVICE_HOSTS = [
  'update.googleapis.com',
  'clients2.google.com',
  'android.clients.google.com',
  'mtalk.google.com',
  'content-autofill.googleapis.com',
  'optimizationguide-pa.googleapis.com',
  'safebrowsing.googleapis.com',
  'safebrowsingohttpgateway.googleapis.com',
  'gaia.invalid',
];
const PROXIED_CHROMIUM_ARGS = ['--gaia-url=https://gaia.invalid', `--host-resolver-rules=${BROWSER_SERVICE_HOSTS.map((host) => `MAP ${host} ~NOTFOUND`).join(', ')}`];

interface Outcome {
  text: string;
  problem?: PageProblem;
  screenshot?: string;
  roleSelector?: string | null;
}

/**
 * Where Chromium is started from: itself, or, when the task has a user of its own, a script that starts it as that
 * user (Playwright cannot start a browser as another user). Chromium shows untrusted pages, so it runs with the
 * task's rights, never the supervisor's. The script goes in `dir`, which the task user can read.
 */
export async function chromiumLauncher(chromiumPath: string, user: TaskUser, dir: string): Promise<string> {
  if (user === null) return chromiumPath;
  const script = join(dir, 'chromium-as-task-user');
  const quoted = `'${chromiumPath.replaceAll("'", `'\\''`)}'`;
  await writeFile(
    script,
    `#!/bin/sh\nexec setpriv --reuid=${user.uid} --regid=${user.gid} --clear-groups --inh-caps=-all -- ${quoted} "$@"\n`,
    { mode: 0o755 },
  );
  return script;
}

/**
 * One Chromium with one page, launched on the first action (or ahead of it, by `warm`) with a fresh profile in a
 * directory of its own, removed on close. Actions run one at a time, in arrival order, since they share the page.
 */
export class BrowserSession {
  private context: BrowserContext | null = null;
  private page: Page | null = null;
  private status: number | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  private dir: string | null = null;
  /** Each launch gets a fresh profile: one a crashed browser left may still be locked. */
  private launches = 0;
  /** Whether an action or a person's input reached the browser: one only warmed makes no recording. */
  private used = false;
  /** Who wants to know when the page the agent works on changes (the live view). */
  private readonly pageListeners = new Set<(page: Page) => void>();
  /** The TOTP codes typed so far, masked in every result, in the recording and in the live view's frames. */
  readonly codes = new TypedCodes();

  /** `executablePath` starts Chromium as `user` (see `chromiumLauncher`); it goes out through `egress` once that is set. */
  constructor(
    private readonly executablePath: string,
    private readonly user: TaskUser,
    private readonly recording: Recording,
    private readonly outputs: RunOutputs,
    private readonly inputs: InputFiles,
    private readonly egress: EgressProxy,
  ) {}

  get launched(): boolean {
    return this.context !== null;
  }

  /** The page the agent works on, or null before the first action opened one (or after a crash). */
  get currentPage(): Page | null {
    return this.page !== null && !this.page.isClosed() ? this.page : null;
  }

  /** Calls `listener` with every page the session opens from now on; answers the way to stop. */
  onPage(listener: (page: Page) => void): () => void {
    this.pageListeners.add(listener);
    return () => this.pageListeners.delete(listener);
  }

  run(action: BrowserRequest): Promise<BrowserResult> {
    this.used = true;
    return this.inTurn(() => this.perform(action));
  }

  /** A person's input reached the page (the live view's takeover). */
  noteInput(): void {
    this.used = true;
  }

  /**
   * Launches the browser and opens its blank page now, so that the first action only navigates: a pooled sandbox
   * does it before any run is on it (see warm-pool.ts). Does nothing when the page is open already. What a recording
   * would load on its start is loaded too, so that it does not compete with the first page.
   */
  async warm(): Promise<void> {
    await this.inTurn(() => this.openPage());
    await this.recording.loadZip();
  }

  /**
   * The run's egress proxy was set (POST /proxy): a browser launched before, warm in a pooled sandbox, went out
   * directly, so it is closed and launched again through the forwarder, behind which the run's actions queue. The
   * POST does not wait for the launch: the first action does, as it would have for a cold browser.
   */
  proxyChanged(): void {
    void this.inTurn(async () => {
      const context = this.context;
      if (context === null) return;
      this.context = null;
      this.page = null;
      await context.close().catch(() => undefined);
      await this.openPage();
    }).catch(() => undefined);
  }

  /** Records the browser from now on, or from its launch when it has not started yet (see recording.ts). */
  startRecording(): Promise<void> {
    return this.inTurn(() => this.recording.start(this.context));
  }

  /** Ends the recording after the actions before it, with `mask` applied to the trace. */
  finishRecording(mask: readonly MaskForm[]): Promise<RecordingResult> {
    return this.inTurn(() => this.recording.finish(this.context, mask, this.used, this.codes));
  }

  private inTurn<T>(work: () => Promise<T>): Promise<T> {
    const result = this.queue.then(work);
    this.queue = result.catch(() => undefined);
    return result;
  }

  async close(): Promise<void> {
    this.closed = true;
    const context = this.context;
    this.context = null;
    this.page = null;
    await context?.close().catch(() => undefined);
    await this.recording.close();
    if (this.dir !== null) await runAs(this.user, 'rm', ['-rf', '--', this.dir]).catch(() => undefined);
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
        const problem = (await this.egress.diagnose(action.url)) ?? navigationProblem(error);
        const outcome = { text: `could not load ${action.url}`, problem };
        return { ...(await this.result(page, outcome)), url: action.url, title: null };
      }
      outcome = { text: `${action.action} failed: ${firstLine(error)}` };
      return { ...(await this.result(page, outcome)), ok: false };
    }
    const problem = outcome.problem ?? (await this.proxyOrStatusProblem(page)) ?? (await captchaProblem(page));
    return this.result(page, { ...outcome, ...(problem === null ? {} : { problem }) });
  }

  /**
   * A server error as the page's problem; through a proxy, an error may be the forwarder's, which answers with one
   * when the proxy fails (proxy-chain's 59x), so the proxy is checked before the site is blamed.
   */
  private async proxyOrStatusProblem(page: Page): Promise<PageProblem | null> {
    const problem = statusProblem(this.status);
    if (problem === null || !this.egress.isSet) return problem;
    return (await this.egress.diagnose(page.url())) ?? problem;
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
        if (action.holdSubmit === true && (await target.first().evaluate(submitsForm, false, { timeout: ACTION_TIMEOUT_MS }))) throw new SubmissionHeld('this click');
        await target.first().click({ timeout: ACTION_TIMEOUT_MS });
        await settle(page);
        return { text: `clicked ${action.selector ?? JSON.stringify(action.text)}` };
      }
      case 'type': {
        // A field given a secret or a code shows discs, as a password field does, in screenshots, the screencast and
        // the recording's frames; the trace's copies of the value are masked when the recording finishes.
        if (Object.keys(action.secrets ?? {}).length > 0 || Object.keys(action.totp ?? {}).length > 0) {
          await page.locator(action.selector).first().evaluate((field) => {
            (field as HTMLElement).style.setProperty('-webkit-text-security', 'disc', 'important');
          }, undefined, { timeout: ACTION_TIMEOUT_MS });
        }
        // Secrets and codes go in here, at the last moment; the outcome says where it typed, never what.
        const codes = await this.currentCodes(action.text, action.totp ?? {});
        await page.fill(action.selector, fillSecretReferences(fillTotpReferences(action.text, codes), action.secrets ?? {}), { timeout: ACTION_TIMEOUT_MS });
        // Before a submit, which may leave the page.
        const roleSelector = await uniqueRoleSelector(page, page.locator(action.selector).first());
        if (action.submit === true && action.holdSubmit === true && (await page.locator(action.selector).first().evaluate(submitsForm, true, { timeout: ACTION_TIMEOUT_MS }))) {
          throw new SubmissionHeld('pressing Enter in this field');
        }
        if (action.submit === true) {
          await page.press(action.selector, 'Enter', { timeout: ACTION_TIMEOUT_MS });
          await settle(page);
        }
        return { text: `typed into ${action.selector}${action.submit === true ? ' and submitted' : ''}`, roleSelector };
      }
      case 'press':
        if (action.holdSubmit === true && /^(Enter|NumpadEnter)$/.test(action.key) && (await focusedSubmits(page))) {
          throw new SubmissionHeld(`pressing ${action.key} here`);
        }
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
      case 'upload': {
        // Only the run's input files: a path the model wrote could name anything the supervisor can read.
        const paths = await this.inputs.paths(action.files);
        await page.locator(action.selector).first().setInputFiles(paths, { timeout: ACTION_TIMEOUT_MS });
        await settle(page);
        return { text: `set ${action.files.length === 0 ? 'no file' : action.files.join(', ')} on ${action.selector}` };
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

  /**
   * The current code of each TOTP connection the text refers to, computed once no code is in its last seconds
   * (waiting for the next period otherwise: see totp-code.ts), and remembered for masking before it is typed.
   */
  private async currentCodes(text: string, seeds: Readonly<Record<string, TotpSeed>>): Promise<Record<string, string>> {
    const names = totpReferenceNames(text).filter((name) => seeds[name] !== undefined);
    if (names.length === 0) return {};
    const at = typingTime(names.map((name) => seeds[name]!), Date.now());
    const wait = at - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const codes: Record<string, string> = {};
    for (const name of names) {
      codes[name] = totpCode(seeds[name]!, Math.max(at, Date.now()));
      this.codes.add(codes[name], name);
    }
    return codes;
  }

  private async openPage(): Promise<Page> {
    if (this.closed) throw new Error('the browser is shut down');
    if (this.page !== null && !this.page.isClosed()) return this.page;
    if (this.context === null) {
      this.dir ??= await this.makeDir();
      const profile = join(this.dir, `profile-${++this.launches}`);
      await runAs(this.user, 'mkdir', ['-m', '700', '--', profile]);
      // Chromium writes downloads here as the task user; readable, so that the supervisor can measure them as they
      // arrive (run-outputs.ts), and moved to /workspace/out/ once complete.
      const downloads = join(this.dir, `downloads-${this.launches}`);
      await runAs(this.user, 'mkdir', ['-m', '755', '--', downloads]);
      // Loaded on first use: it is slow to import, and many runs never open the browser.
      const { chromium } = await import('playwright-core');
      const proxy = this.egress.localUrl;
      const context = await chromium.launchPersistentContext(profile, {
        executablePath: this.executablePath,
        headless: true,
        args: proxy === null ? CHROMIUM_ARGS : [...CHROMIUM_ARGS, ...PROXIED_CHROMIUM_ARGS],
        env: { ...process.env, TMPDIR: this.dir },
        viewport: VIEWPORT,
        acceptDownloads: true,
        downloadsPath: downloads,
        // Through the forwarder, loopback included (Playwright proxies it unless the bypass names it).
        ...(proxy === null ? {} : { proxy: { server: proxy, bypass: BROWSER_SERVICE_HOSTS.join(',') } }),
      });
      // Every page's downloads become the run's files, a popup's too.
      const keepDownloads = (page: Page): void => {
        page.on('download', (download) => this.outputs.track(download, downloads));
      };
      context.pages().forEach(keepDownloads);
      context.on('page', keepDownloads);
      // A crashed browser is started again by the next action.
      context.once('close', () => {
        if (this.context === context) this.context = null;
      });
      this.context = context;
      await this.recording.attach(context);
    }
    const page = this.context.pages().find((open) => !open.isClosed()) ?? (await this.context.newPage());
    page.on('response', (response) => {
      if (response.request().isNavigationRequest() && response.frame() === page.mainFrame()) this.status = response.status();
    });
    this.page = page;
    this.status = null;
    for (const listener of this.pageListeners) listener(page);
    return page;
  }

  /** Made by the task user, who owns what Chromium leaves there; the supervisor may pass through to the profile. */
  private async makeDir(): Promise<string> {
    const dir = (await runAs(this.user, 'mktemp', ['-d', BROWSER_DIR_TEMPLATE])).trim();
    await runAs(this.user, 'chmod', ['711', '--', dir]);
    return dir;
  }

  private async result(page: Page, outcome: Outcome): Promise<BrowserResult> {
    const url = page.url();
    const title = (await page.title().catch(() => '')) || null;
    return {
      ok: outcome.problem === undefined,
      text: truncateMiddle(this.codes.text(outcome.text), TEXT_LIMIT),
      url: url === 'about:blank' ? null : this.codes.text(url),
      title: title === null ? null : this.codes.text(title),
      status: this.status,
      problem: outcome.problem ?? null,
      screenshot: outcome.screenshot ?? null,
      ...(outcome.roleSelector == null ? {} : { roleSelector: this.codes.text(outcome.roleSelector) }),
    };
  }
}

/** Lets a navigation that an action started reach its first paint before the result describes the page. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('domcontentloaded', { timeout: SETTLE_TIMEOUT_MS }).catch(() => undefined);
}

/** An action refused because it would submit a form before a person approved (`holdSubmit`). */
class SubmissionHeld extends Error {
  constructor(what: string) {
    super(`held: ${what} would submit a form, and this run needs a person's approval first: ask with request_human (kind approve), then try again`);
    this.name = 'SubmissionHeld';
  }
}

/**
 * Whether activating `el` submits a form: a submit control of a form (a button without a type is one), or, for
 * Enter (`enter`), any single-line field of a form (implicit submission).
 */
function submitsForm(el: Element, enter: boolean): boolean {
  const control = el.closest('button, input');
  if (control === null) return false;
  const { form, type } = control as HTMLButtonElement | HTMLInputElement;
  if (form === null) return false;
  if (type === 'submit' || type === 'image') return true;
  return enter && control.tagName === 'INPUT' && !['button', 'checkbox', 'radio', 'reset', 'file', 'hidden', 'range', 'color'].includes(type);
}

/** Whether Enter in the focused element submits a form. */
async function focusedSubmits(page: Page): Promise<boolean> {
  const focused = await page.evaluateHandle(() => document.activeElement);
  try {
    const el = focused.asElement();
    return el === null ? false : await el.evaluate(submitsForm, true);
  } finally {
    await focused.dispose();
  }
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}
