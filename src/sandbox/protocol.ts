/**
 * The wire protocol between the daemon and the supervisor process that runs inside every sandbox (a child
 * process for the local driver, PID 1's child in a container for the docker driver). JSON over HTTP on one port, on
 * TLS with a key both ends hold when the traffic crosses a network (`SupervisorTls`); every request carries
 * `Authorization: Bearer <token>` with the per-sandbox token the driver generated. The supervisor got both as the
 * first line of its stdin (`SupervisorHandover`).
 *
 *   GET  /health                 -> HealthResponse
 *   POST /exec     ExecRequest   -> ExecResult
 *   POST /browser  BrowserRequest -> BrowserResult
 *   POST /browser/warm  {}        -> 204      (launch the browser and open its blank page now; idempotent; 500 when it
 *                                              cannot start, and the first action tries again)
 *   PUT  /files?path=REL  (raw bytes)  -> 204      (path relative to the workspace; no `..`)
 *   GET  /files?path=REL          -> raw bytes, 404 if absent
 *   PUT  /inputs?name=NAME  (raw bytes, streamed) -> 204   (a run's input file, placed at <workspace>/in/NAME by the
 *                                              supervisor's own user, read-only for task code; NAME is one plain path
 *                                              segment; 409 when placed already; issue 23)
 *   POST /recording/start  {}     -> 204      (record the browser: a Playwright trace from its launch, or from now)
 *   POST /recording/finish RecordingFinishRequest -> RecordingResult   (stops it; long call, like /browser)
 *   GET  /recording/trace         -> application/zip, 404 until a finish made one
 *   GET  /recording/video         -> video/webm, 404 until a finish made one
 *   GET  /live/frames             -> text/event-stream of `LiveFrame`s (event `frame`) and `LiveTabs` (event `tabs`)
 *                                              while the client stays
 *   POST /live/input   LiveInput  -> 204, 409 when no page is open
 *   POST /outputs/limits OutputLimits -> 204  (the run's file limits, sent as its run starts: downloads stop at them)
 *   GET  /outputs                 -> OutputListing (the files under /workspace/out/, once downloads under way end)
 *   GET  /outputs/file?name=REL   -> raw bytes of one listed file, 404 if absent (REL as the listing names it)
 *   POST /login    LoginRequest  -> LoginLoaded   (a saved login: the state its browser starts with, loaded into the
 *                                              browser before the run's first action (the warm one as it is, without a
 *                                              second launch); its values, and those the browser holds later, masked
 *                                              from then on in results, the recording and the live view's text)
 *   GET  /login                  -> BrowserState   (the browser's state now: cookies, and each origin's localStorage
 *                                              and IndexedDB; its values masked from then on too)
 *   POST /login/check LoginCheck -> LoginCheckResult   (loads a page and looks for what shows only when signed in)
 *   POST /proxy    ProxyRequest  -> 204      (the run's egress proxy, sent once when the run starts using the sandbox,
 *                                              before its first browser action or code: the supervisor starts a local
 *                                              credential-free forwarder that chains to it, gives task code
 *                                              HTTP_PROXY/HTTPS_PROXY/ALL_PROXY (and lowercase) pointing there, and
 *                                              launches the browser through it; a browser already warm is closed and
 *                                              launched again through it. 409 when a proxy is set already)
 *
 * `/exec` and `/browser` answer 200 at once and send a space every 30 s until the JSON result (leading whitespace is
 * valid JSON), because fetch gives up on a response with no bytes for 300 s and code may run longer. So a failure
 * after the request was accepted arrives inside the result (`ok: false`, stderr), not as an HTTP status.
 */
export type CodeLanguage = 'bash' | 'python' | 'node';

/**
 * The first line of the supervisor's stdin, as JSON: its token, and the run's environment, which it gives to task
 * code. Neither is in the supervisor's own environment or arguments, which /proc shows and which would steer the
 * supervisor itself (NODE_OPTIONS, LD_PRELOAD).
 */
export interface SupervisorHandover {
  token: string;
  env: Record<string, string>;
  /**
   * TLS for a supervisor the daemon reaches across a network (a remote sandbox host); null (or absent) for one it
   * reaches on its own machine (loopback, the local engine's bridge), where TLS would cost a start and every call
   * and protect nothing.
   */
  tls: SupervisorTls | null;
}

/**
 * The supervisor's TLS: TLS 1.2 with a pre-shared key per sandbox and ECDHE (forward secrecy), so that what crosses
 * the network to a remote host (typed secrets, files, screenshots) is encrypted, and only the daemon that made the
 * sandbox can talk to it, with no certificate to issue, ship or check (src/sandbox/supervisor-channel.ts).
 */
export interface SupervisorTls {
  /** 32 random bytes, base64url. */
  psk: string;
  /** The PSK identity the client names. */
  identity: string;
  /** OpenSSL cipher list: PSK suites only. */
  ciphers: string;
}

export interface ExecRequest {
  language: CodeLanguage;
  code: string;
  /** Killed (with its whole process group) after this long. */
  timeoutMs: number;
}

export interface ExecResult {
  exitCode: number | null;
  /** Output beyond the limit is cut in the middle, with a marker saying how much was left out. */
  stdout: string;
  stderr: string;
  timedOut: boolean;
  durationMs: number;
}

/**
 * How an action finds its element: by the reference the latest snapshot gave it (`e12`, `f1e3` in an iframe), by a
 * CSS or Playwright selector, or by its visible text. Exactly one.
 */
export type ElementTarget = { ref: string } | { selector: string } | { text: string };

/** A point of the viewport in CSS pixels, as a screenshot shows it. */
export interface ViewportPoint {
  x: number;
  y: number;
}

/** An element, or a point (a canvas, a map, an icon the snapshot cannot name). */
export type PointerTarget = ElementTarget | ViewportPoint;

export type MouseButton = 'left' | 'right' | 'middle';
export type KeyModifier = 'Alt' | 'Control' | 'Meta' | 'Shift';
export type ScrollDirection = 'up' | 'down' | 'left' | 'right';

/**
 * What the agent (or a replay) asks of the browser. Element actions take an `ElementTarget`; pointer actions take an
 * element or a point, so that a click at a point, a key chord, a screenshot and scrolling at a point serve an action
 * space of screenshots and coordinates as well.
 */
export type BrowserAction =
  | { action: 'navigate'; url: string }
  | { action: 'back' }
  | { action: 'forward' }
  | { action: 'reload' }
  | ({ action: 'click'; button?: MouseButton; clickCount?: 1 | 2 | 3; modifiers?: KeyModifier[] } & PointerTarget)
  | ({ action: 'hover' } & PointerTarget)
  /**
   * Fills a field, verifying that it took the text. A date or time field takes the forms people write
   * (`03/31/2010`, `10:22 PM`, ISO); a slider or spin button, a value; a `<select>`, an option.
   */
  | ({ action: 'type'; text: string; submit?: boolean } & ElementTarget)
  /** Chooses options, by label or value, of a `<select>`, a listbox or a combobox; several for a multiple one. */
  | ({ action: 'select'; values: string[] } & ElementTarget)
  /** A key or a chord: `Enter`, `Control+A`, `Shift+Tab`; held down `holdSeconds` (at most 30) when given. */
  | { action: 'press'; key: string; holdSeconds?: number }
  /** From an element or point to another, through the points of `via` when given, holding `modifiers`. */
  | ({ action: 'drag'; to: PointerTarget; via?: ViewportPoint[]; modifiers?: KeyModifier[] } & PointerTarget)
  /**
   * Types `text` with the keyboard into whatever has the focus, as a person would, key by key; the computer action
   * space's `type`. Like `type`, it takes `{{secret:..}}` and `{{totp:..}}`, and the focused field shows discs.
   */
  | { action: 'type_text'; text: string }
  /** Presses or releases the left mouse button, at `at` when given (the pointer moves there first), else where it is. */
  | { action: 'mouse_down'; at?: ViewportPoint }
  | { action: 'mouse_up'; at?: ViewportPoint }
  /** Scrolls the page, or the scrollable area that holds `at` (an element or a point). */
  | { action: 'scroll'; direction: ScrollDirection; amount?: number; at?: PointerTarget }
  /** Scrolls until the text shows, further down the page while it is not there yet. */
  | { action: 'scroll'; toText: string }
  /** Waits until the text shows (or, with `gone`, until it is gone), at most `seconds`; or waits `seconds`. */
  | { action: 'wait'; text: string; gone?: boolean; seconds?: number }
  | { action: 'wait'; seconds: number }
  /** Sets the run's input files (names in /workspace/in; nothing else) on a page's <input type=file> (issue 23). */
  | ({ action: 'upload'; files: string[] } & ElementTarget)
  /** Answers the open dialog (alert, confirm, prompt, beforeunload); `text` is a prompt's answer. */
  | { action: 'dialog'; accept: boolean; text?: string }
  /** Makes the tab at `index` (as results list them) the one actions go to, or closes it. */
  | { action: 'tab'; index: number; close?: boolean }
  /** The page's text from `offset` (0 by default), up to the result's limit. */
  | { action: 'read_text'; offset?: number }
  /** The page's elements with references; with `ref`, that element's part of the page in full. */
  | { action: 'snapshot'; ref?: string }
  /**
   * The viewport as a PNG; with `size`, scaled to that many pixels (at most the viewport's, in its proportions): the
   * computer action space's display, whose coordinates the daemon maps back to CSS pixels.
   */
  | { action: 'screenshot'; size?: { width: number; height: number } };

export const BROWSER_ACTION_NAMES = [
  'navigate',
  'back',
  'forward',
  'reload',
  'click',
  'hover',
  'type',
  'select',
  'press',
  'drag',
  'scroll',
  'wait',
  'upload',
  'dialog',
  'tab',
  'read_text',
  'snapshot',
  'screenshot',
] as const satisfies readonly BrowserAction['action'][];

/**
 * The body of POST /browser: an action, and for a `type` whose text refers to secrets as `{{secret:<name>}}`, the
 * values of exactly those secrets. The supervisor puts them into the text just before it fills the field, so a
 * password reaches the page without passing through the model; no result ever repeats the text typed.
 */
export type BrowserRequest = BrowserAction & {
  /** For a `type` or `type_text` whose text refers to them. */
  secrets?: Record<string, string>;
  /**
   * For a `type` or `type_text` whose text refers to TOTP connections as `{{totp:<name>}}`: the seeds of exactly those. The
   * supervisor computes each current code (waiting for the next period when fewer than 3 s of this one are left:
   * templates/sandbox/supervisor/totp-code.ts), types it, and from then on masks it in what it answers and in the
   * recording's trace. The daemon never learns a code.
   */
  totp?: Record<string, TotpSeed>;
  /**
   * For click, type with submit, press, and type_text with a line break: refuse the action when it would submit a
   * form (a submit control, or Enter in a form's field). The daemon sets it while the run needs a person's approval
   * first (issue 22, item 4).
   */
  holdSubmit?: boolean;
};

/** A TOTP connection's seed as the supervisor gets it (RFC 6238); the daemon checked it when it was stored. */
export interface TotpSeed {
  /** Base32 (RFC 4648), upper case, no spaces or padding. */
  secret: string;
  digits: number;
  /** Seconds. */
  period: number;
  algorithm: TotpAlgorithm;
}

export type TotpAlgorithm = 'SHA1' | 'SHA256' | 'SHA512';

/** Why a page could not be used, recognised by the supervisor so that the run can end as site_down or captcha. */
export type PageProblem =
  | { kind: 'dns_failure'; message: string }
  | { kind: 'connection_refused'; message: string }
  | { kind: 'connection_failed'; message: string }
  | { kind: 'http_error'; status: number; message: string }
  | { kind: 'captcha'; message: string }
  /**
   * The run's egress proxy, not the site, failed: it could not be reached or refused the connection (its credentials,
   * or the target). `message` names the proxy, never its credentials; the run ends as site_down with it.
   */
  | { kind: 'proxy_failed'; message: string }
  /**
   * The page is on the daemon's host or a private network, which this sandbox cannot reach (a docker sandbox without
   * a proxy): the engine's reading of a failed connection there (`engine/tools/sandbox-reach.ts`), never the
   * supervisor's. `message` says why and what to do.
   */
  | { kind: 'host_unreachable'; message: string };

export interface BrowserResult {
  ok: boolean;
  /** Page text, an accessibility snapshot, or a short description of what the action did (truncated). */
  text: string;
  /** How much of the page `text` shows when it is not all of it, and how to see the rest (read_text); else null. */
  extent: string | null;
  url: string | null;
  title: string | null;
  /** HTTP status of the last navigation's main document. */
  status: number | null;
  problem: PageProblem | null;
  /** base64 PNG, for `screenshot`. */
  screenshot: string | null;
  /**
   * For `type`: a role selector (`role=textbox[name="Email"s]`) that finds the field typed into and no other element,
   * when it has an accessible name no other element shares; a recipe tries it before the agent's selector. Absent
   * otherwise (and from sandboxes built before it).
   */
  roleSelector?: string;
  /** The open tabs, in the order they opened; one is `current`, the one actions go to. */
  tabs: BrowserTab[];
  /** A dialog the current tab shows and waits on, which the `dialog` action answers; null when none. */
  dialog: PageDialog | null;
  /**
   * The elements the request named by reference, as the snapshot that gave the reference showed them: a recipe
   * finds them again by role and name.
   */
  elements: RefElement[];
}

export interface BrowserTab {
  index: number;
  url: string | null;
  title: string | null;
  current: boolean;
}

export interface PageDialog {
  type: 'alert' | 'confirm' | 'prompt' | 'beforeunload';
  message: string;
  /** A prompt's default answer; "" for the others. */
  defaultValue: string;
}

export interface RefElement {
  ref: string;
  role: string;
  /** The accessible name; "" for an element that has none (an icon, a list item). */
  name: string;
  /** The element's own text as the snapshot showed it; "" when it showed none. */
  text: string;
  /** Whether it is inside an iframe. */
  framed: boolean;
}

/**
 * The body of POST /proxy. `server` is `http://`, `https://` or `socks5://host:port` without credentials; the
 * credentials come apart and stay in the supervisor (its forwarder answers the proxy's challenge), never in task
 * code's environment, the browser's arguments or a result. `label` is how a failure names the proxy.
 */
export interface ProxyRequest {
  server: string;
  username?: string;
  password?: string;
  label: string;
}

/**
 * A browser's state as Playwright's storage state holds it (`BrowserContext.storageState`): its cookies, and each
 * origin's localStorage and, when it has any, IndexedDB. sessionStorage belongs to a tab and is not kept.
 */
export interface BrowserState {
  cookies: BrowserCookie[];
  origins: BrowserOrigin[];
}

export interface BrowserCookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  /** Unix time in seconds; -1 for a session cookie. */
  expires: number;
  httpOnly: boolean;
  secure: boolean;
  sameSite: 'Strict' | 'Lax' | 'None';
}

export interface BrowserOrigin {
  origin: string;
  localStorage: { name: string; value: string }[];
  /** Playwright's serialized databases, as `storageState({ indexedDB: true })` gives them. */
  indexedDB?: unknown[];
}

/**
 * The body of POST /login: the saved login's name (how its values are masked: `[login:<name>]`) and the state to
 * load, or null for a run that starts signed out and saves what its browser holds at the end.
 */
export interface LoginRequest {
  name: string;
  state: BrowserState | null;
}

export interface LoginLoaded {
  /** Whether the browser had to be launched for it: false when it ran already (warm, from the pool). */
  launched: boolean;
}

/** How to tell a saved login is still signed in: a page, and a text, or a role and name, shown there only then. */
export interface LoginCheck {
  url: string;
  text?: string;
  role?: string;
  name?: string;
}

export interface LoginCheckResult {
  /** `unreachable`: the page did not load, which says nothing of the login. */
  outcome: 'signed_in' | 'signed_out' | 'unreachable';
  /** Where the page ended (after redirects), masked as results are. */
  url: string | null;
  detail: string;
}

export interface HealthResponse {
  ok: true;
  version: string;
  browser: boolean;
}

/** A form a secret may take in the trace (as it is, JSON-escaped, URL-encoded, base64...), and what replaces it. */
export interface MaskForm {
  form: string;
  label: string;
}

/**
 * The body of POST /recording/finish: every form of every secret of the run, longest first (the daemon's
 * `SecretMask`), which the supervisor replaces in every file of the trace before anyone can fetch it.
 */
export interface RecordingFinishRequest {
  mask: MaskForm[];
}

export interface RecordingResult {
  /** Null when nothing was recorded: recording was not started, or the browser never opened. */
  trace: { bytes: number } | null;
  /** The trace's screencast frames as a VP8 WebM; null without frames or when ffmpeg failed (`detail` says why). */
  video: { bytes: number; frames: number } | null;
  detail: string | null;
}
/**
 * One frame of the live view (`GET /live/frames`, event `frame`): the JPEG as CDP's screencast sent it, and the size
 * of the page's viewport in CSS pixels, which is what `LiveInput` coordinates are in. Before the browser has a page
 * the stream sends an event `waiting` instead, with no data.
 */
export interface LiveFrame {
  /** base64 JPEG */
  jpeg: string;
  width: number;
  height: number;
  /** The page's URL, the TOTP codes the sandbox typed in it masked (the daemon masks the run's secrets as it relays). */
  url: string | null;
}

export type LiveMouseButton = 'none' | 'left' | 'middle' | 'right';

/**
 * What a person does on the live view, in the page's CSS pixels; the supervisor hands it to CDP's Input domain as
 * it is (Input.dispatchMouseEvent, Input.dispatchKeyEvent, Input.insertText).
 */
export type LiveInput =
  | { type: 'mouse'; event: 'mousePressed' | 'mouseReleased' | 'mouseMoved'; x: number; y: number; button: LiveMouseButton; clickCount: number; modifiers: number }
  | { type: 'wheel'; x: number; y: number; deltaX: number; deltaY: number; modifiers: number }
  | { type: 'key'; event: 'keyDown' | 'keyUp'; key: string; code: string; keyCode: number; text: string; modifiers: number }
  | { type: 'text'; text: string }
  /** Makes the tab at `index` (as `LiveTabs` lists them) the one shown and the one the agent goes on in. */
  | { type: 'tab'; index: number };

/**
 * The tabs of the live view (`GET /live/frames`, event `tabs`), sent when a watcher joins and whenever they change:
 * titles and URLs pass the run's typed codes, as results do.
 */
export interface LiveTabs {
  tabs: BrowserTab[];
}

/**
 * The run's limits on its files (issue 23, item 2: `run_files.max_count`, `run_files.max_total_mb`): a browser
 * download that would pass them is cancelled, its bytes never kept past the limit, and reported in `refused`.
 */
export interface OutputLimits {
  maxCount: number;
  maxBytes: number;
}

/** A regular file under /workspace/out/: its path there (`/`-separated, as found) and size. */
export interface OutputFile {
  name: string;
  size: number;
}

/** A browser download the supervisor did not keep because it would pass a limit: its suggested name, and which. */
export interface OutputRefusal {
  name: string;
  limit: 'count' | 'bytes';
}

/** The body of GET /outputs. */
export interface OutputListing {
  files: OutputFile[];
  refused: OutputRefusal[];
}
