import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import type { BrowserRequest, BrowserResult, BrowserState, BrowserTab, LoginCheck, LoginCheckResult, LoginLoaded, LoginRequest, MaskForm, PageDialog, PageProblem, RecordingResult, RefElement, TotpSeed } from '../../../src/sandbox/protocol.js';
import { BrowserTabs } from './browser-tabs.js';
import { truncateMiddle } from './capped-text.js';
import type { EgressProxy } from './egress-proxy.js';
import { PageRefs } from './element-refs.js';
import { ACTION_TIMEOUT_MS, ActionFailed, PageActions, READ_TEXT_LIMIT, settle, VIEWPORT, type Outcome, type TypedRequest } from './page-actions.js';
import { captchaProblem, navigationProblem, statusProblem } from './page-problem.js';
import type { InputFiles } from './input-files.js';
import type { Recording } from './recording.js';
import type { RunOutputs } from './run-outputs.js';
import { fillSecretReferences } from './secret-references.js';
import { totpCode, typingTime } from './totp-code.js';
import { fillTotpReferences, totpReferenceNames } from './totp-references.js';
import { MaskedValues } from './masked-values.js';
import { checkSignedIn, loadState, readState } from './saved-login.js';
import { runAs, type TaskUser } from './task-user.js';

/** A result's text; read_text's pages are this long too, so that they come whole. */
export const TEXT_LIMIT = READ_TEXT_LIMIT;
/** A tab an action asked to open (a popup, a link to a new tab) is waited for this long, to describe it. */
const NEW_TAB_TIMEOUT_MS = 5_000;
/**
 * Chromium's directory: its profile, and its TMPDIR, where it makes Unix sockets and leaves them behind. A socket
 * path may not exceed 107 bytes while a sandbox's own TMPDIR can be deep in the data directory, so Chromium gets a
 * short directory of its own, made by the task user, whom Chromium runs as.
 */
const BROWSER_DIR_TEMPLATE = '/tmp/errand-browser-XXXXXX';
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
 * One Chromium and its tabs (browser-tabs.ts), launched on the first action (or ahead of it, by `warm`) with a fresh
 * profile in a directory of its own, removed on close. Actions go to the current tab and run one at a time, in
 * arrival order; each tab keeps the references of its latest snapshot (element-refs.ts).
 */
export class BrowserSession {
  private context: BrowserContext | null = null;
  private readonly tabs = new BrowserTabs();
  private readonly refs = new WeakMap<Page, PageRefs>();
  /** The HTTP status of each tab's last main document. */
  private readonly statuses = new WeakMap<Page, number | null>();
  private readonly actions: PageActions;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  private dir: string | null = null;
  /** Each launch gets a fresh profile: one a crashed browser left may still be locked. */
  private launches = 0;
  /** Whether an action or a person's input reached the browser: one only warmed makes no recording. */
  private used = false;
  /**
   * The TOTP codes typed so far and the saved login's values, masked in every result, in the recording and in the
   * live view's frames.
   */
  readonly codes = new MaskedValues();
  /** The saved login's name once the run has one (POST /login): its values are masked as `[login:<name>]`. */
  private login: string | null = null;
  /** An action a dialog interrupted: it goes on once the dialog is answered, and the answer waits for it. */
  private interrupted: Promise<unknown> | null = null;

  /** `executablePath` starts Chromium as `user` (see `chromiumLauncher`); it goes out through `egress` once that is set. */
  constructor(
    private readonly executablePath: string,
    private readonly user: TaskUser,
    private readonly recording: Recording,
    private readonly outputs: RunOutputs,
    inputs: InputFiles,
    private readonly egress: EgressProxy,
  ) {
    this.actions = new PageActions({ refsOf: (page) => this.refsOf(page), inputs, typedText: (request) => this.typedText(request) });
  }

  get launched(): boolean {
    return this.context !== null;
  }

  /** The page the agent works on, or null before the first action opened one (or after a crash). */
  get currentPage(): Page | null {
    return this.tabs.current;
  }

  /** Calls `listener` with every page that becomes the one the agent works on; answers the way to stop. */
  onPage(listener: (page: Page) => void): () => void {
    return this.tabs.onCurrent(listener);
  }

  /** Calls `listener` whenever a tab opens, closes or becomes current; answers the way to stop. */
  onTabs(listener: () => void): () => void {
    return this.tabs.onChange(listener);
  }

  /** The tabs as a result lists them: titles and URLs pass the typed codes. */
  async listTabs(): Promise<BrowserTab[]> {
    return (await this.tabs.list()).map((tab) => this.masked(tab));
  }

  /** A person's choice of tab (the live view): the agent goes on in it. Answers what is wrong, or null. */
  selectTab(index: number): Promise<string | null> {
    this.used = true;
    return this.inTurn(async () => this.tabs.select(index));
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
      this.tabs.reset();
      await context.close().catch(() => undefined);
      await this.openPage();
    }).catch(() => undefined);
  }

  /**
   * The run's saved login (POST /login): its state loaded into the browser before the first action, into the one a
   * pooled sandbox launched ahead (no second launch) or one launched now; with no state, only named, so that what the
   * browser holds later is masked under its name. Answers whether the browser had to be launched for it.
   */
  useLogin(request: LoginRequest): Promise<LoginLoaded> {
    return this.inTurn(async () => {
      this.login = request.name;
      if (request.state === null) return { launched: false };
      const launched = this.context === null;
      await this.openPage();
      this.codes.login.addState(request.state, request.name);
      await loadState(this.context!, request.state);
      return { launched };
    });
  }

  /** The browser's state now (GET /login), after the actions before it; its values are masked from now on. */
  readLogin(): Promise<BrowserState> {
    return this.inTurn(async () => {
      if (this.context === null) return { cookies: [], origins: [] };
      const state = await readState(this.context);
      this.codes.login.addState(state, this.login ?? 'browser');
      return state;
    });
  }

  /** Whether the saved login is signed in, by its check's page (POST /login/check), in the current tab. */
  checkLogin(check: LoginCheck): Promise<LoginCheckResult> {
    this.used = true;
    return this.inTurn(async () => {
      const result = await checkSignedIn(await this.openPage(), check);
      return { ...result, url: result.url === null ? null : this.codes.text(result.url), detail: this.codes.text(result.detail) };
    });
  }

  /**
   * Cookies a site set since the saved login was loaded are masked before anything the browser shows is answered:
   * the values a sign-in during the run gets are the profile's next state.
   */
  private async refreshLogin(): Promise<void> {
    if (this.login === null || this.context === null) return;
    const cookies = await this.context.cookies().catch(() => []);
    this.codes.login.add(cookies.map((cookie) => cookie.value), this.login);
  }

  /** Records the browser from now on, or from its launch when it has not started yet (see recording.ts). */
  startRecording(): Promise<void> {
    return this.inTurn(() => this.recording.start(this.context));
  }

  /** Ends the recording after the actions before it, with `mask` applied to the trace. */
  finishRecording(mask: readonly MaskForm[]): Promise<RecordingResult> {
    return this.inTurn(async () => {
      // The saved login's values as the browser holds them at the end: a sign-in during the run made new ones.
      if (this.login !== null && this.context !== null) this.codes.login.addState(await readState(this.context).catch(() => ({ cookies: [], origins: [] })), this.login);
      return this.recording.finish(this.context, mask, this.used, this.codes);
    });
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
    this.tabs.reset();
    await context?.close().catch(() => undefined);
    await this.recording.close();
    if (this.dir !== null) await runAs(this.user, 'rm', ['-rf', '--', this.dir]).catch(() => undefined);
  }

  private async perform(request: BrowserRequest): Promise<BrowserResult> {
    let page: Page;
    try {
      page = await this.openPage();
    } catch (error) {
      return this.result(null, { text: `the browser could not start: ${firstLine(error)}` }, false, []);
    }
    if (request.action === 'dialog') return this.answerDialog(page, request.accept, request.text);
    if (request.action === 'tab') return this.useTab(request.index, request.close === true);
    const elements = this.actions.referenced(page, request);
    const open = this.tabs.dialogOf(page);
    if (open !== null) return this.result(page, { text: `${request.action} was not done: ${dialogWords(open)} holds the page; answer it first with dialog {accept: true} or {accept: false}` }, false, elements);
    const mark = this.tabs.mark();
    const acting = this.actions.act(page, request);
    let stop: () => void = () => undefined;
    const interrupted = await Promise.race([
      acting.then(
        () => false,
        () => false,
      ),
      new Promise<boolean>((resolve) => {
        stop = this.tabs.whenDialog(page, () => resolve(true));
      }),
    ]);
    stop();
    if (interrupted) {
      this.interrupted = acting.catch(() => undefined);
      return this.result(page, { text: `${request.action} opened a dialog, which holds the page until it is answered (dialog {accept})` }, true, elements);
    }
    let outcome: Outcome;
    try {
      outcome = await acting;
    } catch (error) {
      if (request.action === 'navigate') {
        this.statuses.set(page, null);
        const problem = (await this.egress.diagnose(request.url)) ?? navigationProblem(error);
        const result = await this.result(page, { text: `could not load ${request.url}`, problem }, false, elements);
        return { ...result, url: request.url, title: null };
      }
      // The page closed under the action (a popup's button that closes its window as it is pressed): the page took
      // it, and the tab it hands back to is current, as after any action that closes its tab.
      if (page.isClosed()) return this.after(page, mark, { text: `${request.action} done` }, elements);
      const text = error instanceof ActionFailed ? error.message : `${request.action} failed: ${firstLine(error)}`;
      return this.result(this.tabs.current ?? page, { text }, false, elements);
    }
    if (outcome.status !== undefined) this.statuses.set(page, outcome.status);
    return this.after(page, mark, outcome, elements);
  }

  /** The result of an action done: the tab it opened, if any, is current now, and described once it has loaded. */
  private async after(page: Page, mark: ReturnType<BrowserTabs['mark']>, outcome: Outcome, elements: RefElement[]): Promise<BrowserResult> {
    await this.tabs.opened(mark, NEW_TAB_TIMEOUT_MS);
    const now = this.tabs.current;
    if (now === null) return this.result(null, { ...outcome, text: `${outcome.text}; that closed the last tab` }, true, elements);
    if (now !== page) {
      await settle(now);
      outcome = { ...outcome, text: `${outcome.text}; ${page.isClosed() ? 'the tab closed, and' : 'it opened a new tab, which is now current:'} ${now.url()}${page.isClosed() ? ' is current' : ''}` };
    }
    if (this.tabs.dialogOf(now) !== null) return this.result(now, outcome, true, elements);
    const problem = outcome.problem ?? (await this.proxyOrStatusProblem(now)) ?? (await captchaProblem(now));
    return this.result(now, { ...outcome, ...(problem === null ? {} : { problem }) }, true, elements);
  }

  private async answerDialog(page: Page, accept: boolean, text: string | undefined): Promise<BrowserResult> {
    const dialog = this.tabs.dialogOf(page);
    if (dialog === null) return this.result(page, { text: 'no dialog is open on this tab' }, false, []);
    const mark = this.tabs.mark();
    await this.tabs.answer(page, accept, text);
    const interrupted = this.interrupted;
    this.interrupted = null;
    if (interrupted !== null) await untilOrAfter(interrupted, ACTION_TIMEOUT_MS);
    if (!page.isClosed()) await settle(page);
    const answer = dialog.type === 'prompt' && accept && text !== undefined ? ` with ${JSON.stringify(text)}` : '';
    return this.after(page, mark, { text: `${accept ? 'accepted' : 'dismissed'} ${dialogWords(dialog)}${answer}` }, []);
  }

  private async useTab(index: number, close: boolean): Promise<BrowserResult> {
    const wrong = close ? await this.tabs.close(index) : this.tabs.select(index);
    const now = this.tabs.current;
    if (wrong !== null) return this.result(now, { text: wrong }, false, []);
    if (now !== null) await settle(now);
    if (!close) return this.result(now, { text: `switched to tab ${index}` }, true, []);
    const asking = now === null ? null : this.tabs.dialogOf(now);
    return this.result(now, { text: asking?.type === 'beforeunload' ? `tab ${index} asks before it closes: answer with dialog {accept}` : `closed tab ${index}` }, true, []);
  }

  /**
   * A server error as the page's problem; through a proxy, an error may be the forwarder's, which answers with one
   * when the proxy fails (proxy-chain's 59x), so the proxy is checked before the site is blamed.
   */
  private async proxyOrStatusProblem(page: Page): Promise<PageProblem | null> {
    const problem = statusProblem(this.statuses.get(page) ?? null);
    if (problem === null || !this.egress.isSet) return problem;
    return (await this.egress.diagnose(page.url())) ?? problem;
  }

  private refsOf(page: Page): PageRefs {
    let refs = this.refs.get(page);
    if (refs === undefined) {
      refs = new PageRefs(page);
      this.refs.set(page, refs);
    }
    return refs;
  }

  /** The text of a `type` or `type_text`, with its secrets and the current TOTP codes put in. */
  private async typedText(request: TypedRequest): Promise<string> {
    const codes = await this.currentCodes(request.text, request.totp ?? {});
    return fillSecretReferences(fillTotpReferences(request.text, codes), request.secrets ?? {});
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
      this.codes.codes.add(codes[name], name);
    }
    return codes;
  }


  private async openPage(): Promise<Page> {
    if (this.closed) throw new Error('the browser is shut down');
    const current = this.tabs.current;
    if (current !== null) return current;
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
      // Every tab's downloads become the run's files, a popup's too.
      this.tabs.follow(context, (page) => {
        page.on('download', (download) => this.outputs.track(download, downloads));
        page.on('response', (response) => {
          if (response.request().isNavigationRequest() && response.frame() === page.mainFrame()) this.statuses.set(page, response.status());
        });
      });
      // A crashed browser is started again by the next action.
      context.once('close', () => {
        if (this.context !== context) return;
        this.context = null;
        this.tabs.reset();
      });
      this.context = context;
      await this.recording.attach(context);
    }
    await this.tabs.settled();
    const page = this.tabs.current ?? (await this.context.newPage());
    this.tabs.use(page);
    return page;
  }

  /** Made by the task user, who owns what Chromium leaves there; the supervisor may pass through to the profile. */
  private async makeDir(): Promise<string> {
    const dir = (await runAs(this.user, 'mktemp', ['-d', BROWSER_DIR_TEMPLATE])).trim();
    await runAs(this.user, 'chmod', ['711', '--', dir]);
    return dir;
  }

  /**
   * What the agent reads back, every text through the typed codes: the action's outcome, where the current tab is,
   * the tabs, a dialog waiting, and the elements the request named by reference.
   */
  private async result(page: Page | null, outcome: Outcome, ok: boolean, elements: readonly RefElement[]): Promise<BrowserResult> {
    await this.refreshLogin();
    const live = page !== null && !page.isClosed() ? page : null;
    const url = live?.url() ?? null;
    const dialog = live === null ? null : this.tabs.dialogOf(live);
    const title = live === null ? null : await this.tabs.titleOf(live);
    return {
      ok: ok && outcome.problem === undefined,
      text: truncateMiddle(this.codes.text(outcome.text), TEXT_LIMIT),
      extent: outcome.extent ?? null,
      url: url === null || url === 'about:blank' ? null : this.codes.text(url),
      title: title === null ? null : this.codes.text(title),
      status: live === null ? null : (this.statuses.get(live) ?? null),
      problem: outcome.problem ?? null,
      screenshot: outcome.screenshot ?? null,
      tabs: await this.listTabs(),
      dialog: dialog === null ? null : { ...dialog, message: this.codes.text(dialog.message), defaultValue: this.codes.text(dialog.defaultValue) },
      elements: elements.map((element) => ({ ...element, name: this.codes.text(element.name) })),
      ...(outcome.roleSelector == null ? {} : { roleSelector: this.codes.text(outcome.roleSelector) }),
    };
  }

  private masked(tab: BrowserTab): BrowserTab {
    return { ...tab, url: tab.url === null ? null : this.codes.text(tab.url), title: tab.title === null ? null : this.codes.text(tab.title) };
  }
}

/** How a result names a dialog: its kind and message. */
function dialogWords(dialog: PageDialog): string {
  return dialog.type === 'beforeunload' ? 'a "leave this page?" dialog (beforeunload)' : `the ${dialog.type} ${JSON.stringify(dialog.message)}`;
}

/** Waits for `work`, or `ms`, whichever comes first. */
async function untilOrAfter(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}
