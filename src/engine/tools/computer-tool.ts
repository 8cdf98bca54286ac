import { performance } from 'node:perf_hooks';
import { withSecrets } from '../../connections/secret-references.js';
import { browserResultText } from '../../sandbox/browser-result-text.js';
import type { BrowserAction, BrowserResult, PageDialog } from '../../sandbox/protocol.js';
import { toolError, type AgentTool, type ToolCall, type ToolContext, type ToolOutcome, type ToolSource } from '../../agent-tools/agent-tool.js';
import type { ComputerAction, ComputerCallInput, ScreenPoint } from '../../agent-tools/computer-actions.js';
import type { ToolContent } from '../../agent-tools/tool-content.js';
import { failedOutcome } from '../../runs/run-outcome.js';
import { describeBrowserAction, type SubmissionHold } from './browser-tool.js';
import type { ComputerDisplay } from './computer-display.js';
import { withSandboxReach } from './sandbox-reach.js';

/**
 * The computer action space's tools (docs/api.md, "Action spaces"): `computer`, the model API's own computer-use tool
 * (each provider declares its API's definition and turns the model's calls into `ComputerCallInput`), and
 * `navigate`, for what a browser's address bar and tab strip do, which a headless page's screenshots do not show.
 * Both drive the same sandbox browser as the browser tool, through the supervisor's mouse and keyboard actions, so
 * the recording, the live view, a takeover and typed secrets work as they do there.
 */

/** CSS pixels one click of a mouse wheel scrolls, as Chromium scrolls a page per notch. */
const WHEEL_CLICK_PX = 100;
/** The longest `wait` the browser takes at once. */
const MAX_WAIT_S = 30;

/** What one attempt's computer remembers between calls: where the pointer is, and a dialog holding the page. */
interface ComputerState {
  pointer: ScreenPoint | null;
  dialog: PageDialog | null;
  /** An answer typed for a prompt dialog, given when Return accepts it. */
  promptText: string | null;
}

export interface ComputerToolsOptions {
  display: ComputerDisplay;
  hold: SubmissionHold;
}

/** The computer and navigate tools, made for each attempt (they keep the pointer's place and a dialog's state). */
export function computerTools(options: ComputerToolsOptions): ToolSource {
  return {
    open: async () => {
      const state: ComputerState = { pointer: null, dialog: null, promptText: null };
      return { tools: [computerTool(options, state), navigateTool(options, state)], close: async () => undefined };
    },
  };
}

function computerTool(options: ComputerToolsOptions, state: ComputerState): AgentTool<ComputerCallInput> {
  const { display } = options;
  return {
    spec: {
      name: 'computer',
      description:
        `The screen of a browser page, ${display.width}x${display.height} pixels: screenshot; click, double and triple click, right click at a point, ` +
        'with keys held; move the mouse; press and release its button; drag; scroll at a point; type text; press keys and chords; wait. ' +
        'Every action answers with a screenshot. Typing {{secret:<name>}} or {{totp:<name>}} types a stored secret or a code you never see.',
      inputSchema: {
        type: 'object',
        required: ['action'],
        properties: {
          action: { type: 'string' },
          coordinate: { type: 'array', items: { type: 'integer' }, minItems: 2, maxItems: 2 },
          text: { type: 'string' },
        },
      },
      native: { kind: 'computer', display: { width: display.width, height: display.height } },
    },
    summary:
      `computer: the page as a ${display.width}x${display.height} screen; look with screenshot, act with the mouse and keyboard at its pixels. ` +
      'A dialog (alert, confirm, prompt) is not drawn: the result says when one holds the page; Return accepts it (type a prompt\'s answer first), Escape dismisses it.',
    parse(input) {
      if ('invalid' in input && typeof input.invalid === 'string') return input.invalid;
      if (!Array.isArray(input.actions) || input.actions.length === 0) return 'the computer call carried no action';
      return input as ComputerCallInput;
    },
    async execute(input, ctx, call) {
      if ('invalid' in input) return toolError(ctx, 'computer', call.input, input.invalid);
      const names = input.actions.map((a) => a.action).join(',');
      if (input.safety_checks !== undefined && input.safety_checks.length > 0) {
        const checks = input.safety_checks.map((c) => `${c.code}: ${c.message}`).join('; ');
        return toolError(ctx, `computer.${names}`, call.input, `not done: the model API flagged this action (${checks}). Choose another way, or ask a person with request_human.`);
      }
      const started = performance.now();
      const lines: string[] = [];
      let ok = true;
      let keep = false;
      for (const action of input.actions) {
        const done = await act(action, options, state, ctx);
        if (done.kind === 'finished') return done;
        lines.push(done.text);
        if (action.action === 'screenshot') keep = true;
        if (!done.ok) {
          ok = false;
          break;
        }
      }
      return look({ ctx, call, state, display, name: `computer.${names}`, lines, ok, keep, started });
    },
  };
}

function navigateTool(options: ComputerToolsOptions, state: ComputerState): AgentTool<BrowserAction> {
  return {
    spec: {
      name: 'navigate',
      description:
        "What the browser's address bar, buttons and tabs do, which the screen does not show: {url} opens an address; {go: back, forward or reload}; " +
        '{tab: index} switches to a tab, with close: true closes it (results list the open tabs). Answers with a screenshot.',
      inputSchema: {
        type: 'object',
        properties: {
          url: { type: 'string' },
          go: { type: 'string', enum: ['back', 'forward', 'reload'] },
          tab: { type: 'integer', minimum: 0 },
          close: { type: 'boolean' },
        },
      },
    },
    summary: 'navigate: open an address, go back, forward or reload, switch to or close a tab.',
    parse(input) {
      if (typeof input.url === 'string' && input.url !== '') {
        let parsed: URL;
        try {
          parsed = new URL(input.url);
        } catch {
          return `navigate: ${JSON.stringify(input.url)} is not an absolute URL`;
        }
        if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `navigate: only http and https URLs are allowed, not ${parsed.protocol}`;
        return { action: 'navigate', url: parsed.href };
      }
      if (input.go === 'back' || input.go === 'forward' || input.go === 'reload') return { action: input.go };
      if (Number.isInteger(input.tab) && (input.tab as number) >= 0) return { action: 'tab', index: input.tab as number, ...(input.close === true ? { close: true } : {}) };
      return 'navigate needs a `url`, `go` (back, forward or reload), or a `tab` index';
    },
    async execute(action, ctx, call) {
      const started = performance.now();
      const done = await send(action, options, state, ctx, null);
      if (done.kind === 'finished') return done;
      return look({ ctx, call, state, display: options.display, name: `navigate.${action.action}`, lines: [done.text], ok: done.ok, keep: false, started });
    },
  };
}

type Done = { kind: 'done'; ok: boolean; text: string } | Extract<ToolOutcome, { kind: 'finished' }>;

/** Carries out one computer action, in the page's CSS pixels. */
async function act(action: ComputerAction, options: ComputerToolsOptions, state: ComputerState, ctx: ToolContext): Promise<Done> {
  const { display } = options;
  const refused = (text: string): Done => ({ kind: 'done', ok: false, text });
  const offScreen = (p: ScreenPoint): Done => refused(`${p.x},${p.y} is off the screen, which is ${display.width}x${display.height} pixels`);
  /** The page point of a screen point, or of the pointer where none is given. */
  const pagePoint = (at: ScreenPoint | null): { x: number; y: number } | Done => {
    const point = at ?? state.pointer;
    if (point === null) return refused('the pointer has not been placed yet: give a coordinate');
    if (!display.holds(point)) return offScreen(point);
    return display.toPage(point);
  };
  const isDone = (value: unknown): value is Done => typeof value === 'object' && value !== null && 'kind' in value;
  switch (action.action) {
    case 'screenshot':
      return { kind: 'done', ok: true, text: 'took a screenshot' };
    case 'cursor_position':
      return state.pointer === null ? { kind: 'done', ok: true, text: 'the pointer has not been placed yet' } : { kind: 'done', ok: true, text: `the pointer is at ${state.pointer.x},${state.pointer.y}` };
    case 'wait':
      return send({ action: 'wait', seconds: Math.min(MAX_WAIT_S, Math.max(0, action.seconds)) }, options, state, ctx, null);
    case 'history':
      return send({ action: action.direction }, options, state, ctx, null);
    case 'click': {
      const at = pagePoint(action.at);
      if (isDone(at)) return at;
      return send(
        {
          action: 'click',
          ...at,
          ...(action.button === 'left' ? {} : { button: action.button }),
          ...(action.count === 1 ? {} : { clickCount: action.count }),
          ...(action.modifiers.length === 0 ? {} : { modifiers: action.modifiers }),
        },
        options,
        state,
        ctx,
        action.at ?? state.pointer,
      );
    }
    case 'move': {
      const at = pagePoint(action.at);
      if (isDone(at)) return at;
      return send({ action: 'hover', ...at }, options, state, ctx, action.at);
    }
    case 'mouse_down':
    case 'mouse_up': {
      if (action.at === null) return send({ action: action.action }, options, state, ctx, null);
      const at = pagePoint(action.at);
      if (isDone(at)) return at;
      return send({ action: action.action, at }, options, state, ctx, action.at);
    }
    case 'drag': {
      const points: { x: number; y: number }[] = [];
      for (const p of action.path) {
        if (!display.holds(p)) return offScreen(p);
        points.push(display.toPage(p));
      }
      if (points.length < 2) return refused('a drag needs at least two points');
      const from = points[0]!;
      const to = points.at(-1)!;
      const via = points.slice(1, -1);
      return send(
        { action: 'drag', ...from, to, ...(via.length === 0 ? {} : { via }), ...(action.modifiers.length === 0 ? {} : { modifiers: action.modifiers }) },
        options,
        state,
        ctx,
        action.path.at(-1)!,
      );
    }
    case 'scroll': {
      const at = action.at === null && state.pointer === null ? null : pagePoint(action.at);
      if (at !== null && isDone(at)) return at;
      const toPage = (d: number): number => Math.max(1, action.unit === 'wheel_clicks' ? Math.round(Math.abs(d) * WHEEL_CLICK_PX) : display.toPageDistance(Math.abs(d)));
      const texts: string[] = [];
      for (const [d, negative, positive] of [
        [action.dy, 'up', 'down'],
        [action.dx, 'left', 'right'],
      ] as const) {
        if (d === 0) continue;
        const done = await send({ action: 'scroll', direction: d < 0 ? negative : positive, amount: toPage(d), ...(at === null ? {} : { at }) }, options, state, ctx, action.at);
        if (done.kind === 'finished' || !done.ok) return done;
        texts.push(done.text);
      }
      return { kind: 'done', ok: true, text: texts.length === 0 ? 'scrolled nowhere (no distance)' : texts.join('; ') };
    }
    case 'type': {
      // A prompt dialog takes its answer from what is typed while it holds the page; Return gives it.
      if (state.dialog?.type === 'prompt') {
        state.promptText = (state.promptText ?? '') + action.text;
        return { kind: 'done', ok: true, text: 'typed into the prompt dialog; press Return to give it' };
      }
      return send({ action: 'type_text', text: action.text }, options, state, ctx, null);
    }
    case 'key': {
      if (state.dialog !== null && (action.chord === 'Enter' || action.chord === 'Escape')) {
        const accept = action.chord === 'Enter';
        const text = accept && state.dialog.type === 'prompt' && state.promptText !== null ? state.promptText : undefined;
        return send({ action: 'dialog', accept, ...(text === undefined ? {} : { text }) }, options, state, ctx, null);
      }
      return send({ action: 'press', key: action.chord, ...(action.holdSeconds === undefined ? {} : { holdSeconds: Math.min(MAX_WAIT_S, action.holdSeconds) }) }, options, state, ctx, null);
    }
    default: {
      const unknown: never = action;
      throw new Error(`unknown computer action ${JSON.stringify(unknown)}`);
    }
  }
}

/**
 * Sends one browser request as the browser tool does: secrets by reference, a held submission while the run needs
 * an approval, the run's progress line, the evidence's note. `pointer` is where the pointer ends up, on the screen.
 */
async function send(action: BrowserAction, options: ComputerToolsOptions, state: ComputerState, ctx: ToolContext, pointer: ScreenPoint | null): Promise<Done> {
  const withValues = withSecrets(action, ctx.secrets);
  if (typeof withValues === 'string') return { kind: 'done', ok: false, text: withValues };
  const request = mayHold(action) && options.hold(ctx.run) ? { ...withValues, holdSubmit: true } : withValues;
  ctx.recorder.lastAction(describeBrowserAction(action).replace(/^browser /, 'computer '));
  const answered = await ctx.sandbox.browser(request, ctx.signal);
  const result = ctx.sandbox.reachesHost ? answered : withSandboxReach(answered, action.action === 'navigate' ? action.url : null);
  ctx.evidence.noteBrowser(action, result);
  if (pointer !== null && result.ok) state.pointer = pointer;
  noteDialog(state, result);
  // The run's proxy failed, not the site: nothing the agent tries next can pass it (issue 23, item 4).
  if (result.problem?.kind === 'proxy_failed') return { kind: 'finished', outcome: failedOutcome('site_down', result.problem.message) };
  return { kind: 'done', ok: result.ok, text: result.text };
}

function noteDialog(state: ComputerState, result: BrowserResult): void {
  if (result.dialog === null) state.promptText = null;
  state.dialog = result.dialog;
}

function mayHold(action: BrowserAction): boolean {
  return action.action === 'click' || action.action === 'press' || action.action === 'type_text';
}

interface Look {
  ctx: ToolContext;
  call: ToolCall;
  state: ComputerState;
  display: ComputerDisplay;
  name: string;
  /** What each action did, in order. */
  lines: string[];
  ok: boolean;
  /** Whether the screenshot is kept as an artifact the model may name as evidence (it asked for one). */
  keep: boolean;
  started: number;
}

/**
 * The answer of a call: what the actions did and where the page is, with a screenshot of the screen after them (none
 * while a dialog holds the page, which a screenshot cannot show). Records the call as one step.
 */
async function look(o: Look): Promise<ToolOutcome> {
  const { ctx, state, display } = o;
  let text = o.lines.join('\n');
  const content: ToolContent = [];
  let artifactId: string | null = null;
  if (state.dialog === null) {
    const shot = await ctx.sandbox.browser({ action: 'screenshot', ...(display.unscaled ? {} : { size: { width: display.width, height: display.height } }) }, ctx.signal);
    noteDialog(state, shot);
    if (shot.screenshot !== null) {
      if (o.keep) {
        artifactId = await ctx.evidence.keepScreenshot(shot.screenshot);
        text = `screenshot id: ${artifactId} (name it as evidence_screenshot if it shows the answer)\n${text}`;
      }
      text = `${text}\n${pageLines(shot)}`;
      content.push({ type: 'image', mediaType: 'image/png', data: shot.screenshot });
    } else {
      text = `${text}\n${browserResultText(shot)}`;
    }
  }
  if (state.dialog !== null) text = `${text}\n${dialogLine(state.dialog)}`;
  content.unshift({ type: 'text', text });
  ctx.recorder.toolCall({ name: o.name, input: o.call.input, output: text, isError: !o.ok, durationMs: performance.now() - o.started, artifactId });
  return { kind: 'result', content, isError: !o.ok };
}

/** Where the page is, and its tabs when there are several: what a browser's chrome would show around the screen. */
function pageLines(result: BrowserResult): string {
  const text = browserResultText({ ...result, text: '', extent: null, dialog: null });
  return text.replace('tabs (tab {index} switches):', 'tabs (navigate {tab} switches):');
}

function dialogLine(dialog: PageDialog): string {
  const said = dialog.type === 'beforeunload' ? 'asks whether to leave the page' : JSON.stringify(dialog.message);
  const prompt = dialog.type === 'prompt' ? ' Type the answer, then press Return to give it.' : '';
  return `DIALOG (not drawn on the screen): ${dialog.type === 'alert' ? 'an' : 'a'} ${dialog.type} ${said} holds the page. Press Return to accept it (OK), Escape to dismiss it (Cancel).${prompt}`;
}
