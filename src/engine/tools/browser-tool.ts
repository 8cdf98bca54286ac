import { performance } from 'node:perf_hooks';
import { BROWSER_ACTION_NAMES, type BrowserAction, type ElementTarget, type KeyModifier, type MouseButton, type PointerTarget } from '../../sandbox/protocol.js';
import { withSecrets } from '../../connections/secret-references.js';
import { browserResultText } from '../../sandbox/browser-result-text.js';
import { withSandboxReach } from './sandbox-reach.js';
import { toolError, type AgentTool } from '../../agent-tools/agent-tool.js';
import { type ToolContent } from '../../agent-tools/tool-content.js';
import type { RunRow } from '../../store/runs-table.js';
import { failedOutcome } from '../../runs/run-outcome.js';

export const BROWSER_ACTIONS = BROWSER_ACTION_NAMES;

/**
 * Whether the run may not submit a form now: it requires a person's approval (`require_approval`) and has none yet
 * (issue 22, item 4). The supervisor then refuses a click on a submit control and Enter in a form's field.
 */
export type SubmissionHold = (run: RunRow) => boolean;

/** The browser tool of runs that may submit forms freely. */
export const browserTool: AgentTool<BrowserAction> = createBrowserTool(() => false);

/** Drives the sandbox's Chromium; screenshots become artifacts the model can name as evidence. */
export function createBrowserTool(hold: SubmissionHold): AgentTool<BrowserAction> {
  return {
    spec: {
      name: 'browser',
      description:
        "Drive a headless Chromium. Look with snapshot (the page's elements; each one you can act on has a [ref=eN]), read_text or screenshot. " +
        'Act on an element by `ref` from the latest snapshot (a stale ref fails: snapshot again), or `selector` (CSS or Playwright), or visible `text`; ' +
        'click, hover and drag also take a point `x`,`y` (viewport pixels, as in a screenshot). Actions: navigate {url}; back; forward; reload; ' +
        'click {button?, double?, modifiers?}; hover; type {text, submit?} (submit presses Enter; checks the field took it; dates and times in any usual form, ' +
        'sliders by value; {{secret:<name>}} types a stored secret you never see, {{totp:<name>}} an authenticator code); ' +
        'select {values} (options by label or value of a select, listbox or combobox); press {key} (Enter, Control+A, Shift+Tab); ' +
        'drag {to_ref or to_x,to_y}; scroll {direction, amount?, ref or x,y?} or {text} (until it shows); wait {text, gone?, seconds?} or {seconds}; ' +
        "upload {files} (the run's input files, by name); dialog {accept, text?} (answers an alert, confirm or prompt); tab {index, close?}; " +
        'read_text {offset?}; snapshot {ref?} (one part in full); screenshot (you see it; its id can be named as evidence). ' +
        'Results give the URL, title, HTTP status, the open tabs, a dialog waiting for an answer, and a `problem` when the page is unusable.',
      inputSchema: {
        type: 'object',
        required: ['action'],
        properties: {
          action: { type: 'string', enum: [...BROWSER_ACTIONS] },
          url: { type: 'string' },
          ref: { type: 'string', description: 'e.g. e12, from the latest snapshot.' },
          selector: { type: 'string' },
          text: { type: 'string', description: "An element's visible text; or what to type, to find, or a prompt's answer." },
          x: { type: 'number' },
          y: { type: 'number' },
          button: { type: 'string', enum: ['left', 'right', 'middle'] },
          double: { type: 'boolean' },
          modifiers: { type: 'array', items: { type: 'string', enum: ['Alt', 'Control', 'Meta', 'Shift'] } },
          submit: { type: 'boolean' },
          values: { type: 'array', items: { type: 'string' } },
          key: { type: 'string' },
          to_ref: { type: 'string' },
          to_x: { type: 'number' },
          to_y: { type: 'number' },
          direction: { type: 'string', enum: ['up', 'down', 'left', 'right'] },
          amount: { type: 'integer', description: 'Pixels (one screen by default).' },
          seconds: { type: 'number', maximum: 30 },
          gone: { type: 'boolean' },
          accept: { type: 'boolean' },
          index: { type: 'integer' },
          close: { type: 'boolean' },
          offset: { type: 'integer' },
          files: { type: 'array', items: { type: 'string' } },
        },
      },
    },
    summary: 'browser: a headless Chromium with tabs; look with snapshot (elements with refs), read_text or screenshot (an image with an id), and act on refs, selectors, text or points.',
    parse: parseBrowserInput,
    async execute(action, ctx, call) {
      const unknown = action.action === 'upload' ? unknownInputFiles(action.files, ctx.inputFiles) : null;
      if (unknown !== null) return toolError(ctx, `browser.${action.action}`, call.input, unknown);
      const withValues = withSecrets(action, ctx.secrets);
      if (typeof withValues === 'string') return toolError(ctx, `browser.${action.action}`, call.input, withValues);
      const request = mayHold(action) && hold(ctx.run) ? { ...withValues, holdSubmit: true } : withValues;
      ctx.recorder.lastAction(describeBrowserAction(action));
      const started = performance.now();
      const answered = await ctx.sandbox.browser(request, ctx.signal);
      const result = ctx.sandbox.reachesHost ? answered : withSandboxReach(answered, action.action === 'navigate' ? action.url : null);
      ctx.evidence.noteBrowser(action, result);
      let text = browserResultText(result);
      let artifactId: string | null = null;
      if (result.screenshot !== null) {
        artifactId = await ctx.evidence.keepScreenshot(result.screenshot);
        text = `screenshot id: ${artifactId} (name it as evidence_screenshot if it shows the answer)\n${text}`;
      }
      const content: ToolContent = [{ type: 'text', text }];
      if (result.screenshot !== null) content.push({ type: 'image', mediaType: 'image/png', data: result.screenshot });
      ctx.recorder.toolCall({ name: `browser.${action.action}`, input: call.input, output: text, isError: !result.ok, durationMs: performance.now() - started, artifactId });
      // The run's proxy failed, not the site: nothing the agent tries next can pass it (issue 23, item 4).
      if (result.problem?.kind === 'proxy_failed') return { kind: 'finished', outcome: failedOutcome('site_down', result.problem.message) };
      return { kind: 'result', content, isError: !result.ok };
    },
  };
}

/** The actions that can submit a form. */
function mayHold(action: BrowserAction): boolean {
  return action.action === 'click' || action.action === 'press' || (action.action === 'type' && action.submit === true);
}

/** What is wrong when an upload names a file that is not one of the run's input files, or null. */
function unknownInputFiles(files: readonly string[], inputFiles: readonly string[]): string | null {
  const unknown = files.filter((f) => !inputFiles.includes(f));
  if (unknown.length === 0) return null;
  const have = inputFiles.length === 0 ? 'this run has no input files' : `its input files are ${inputFiles.map((f) => JSON.stringify(f)).join(', ')}`;
  return `upload takes only the run's input files, by name: ${unknown.map((f) => JSON.stringify(f)).join(', ')} is not one; ${have}`;
}

const MODIFIERS: readonly KeyModifier[] = ['Alt', 'Control', 'Meta', 'Shift'];
const BUTTONS: readonly MouseButton[] = ['left', 'right', 'middle'];

/** Turns the model's `browser` input into a protocol action, or says what is wrong with it. */
export function parseBrowserInput(input: Record<string, unknown>): BrowserAction | string {
  const action = input.action;
  const str = (name: string): string | undefined => (typeof input[name] === 'string' && input[name] !== '' ? (input[name] as string) : undefined);
  const num = (name: string): number | undefined => (typeof input[name] === 'number' && Number.isFinite(input[name]) ? (input[name] as number) : undefined);
  /** The element the input names: ref, selector or (unless `text` is what to type or find) text. */
  const element = (textIsTarget: boolean): ElementTarget | null => {
    const ref = str('ref');
    if (ref !== undefined) return { ref };
    const selector = str('selector');
    if (selector !== undefined) return { selector };
    const text = textIsTarget ? str('text') : undefined;
    return text === undefined ? null : { text };
  };
  const point = (xKey: string, yKey: string): { x: number; y: number } | null => {
    const x = num(xKey);
    const y = num(yKey);
    return x === undefined || y === undefined ? null : { x, y };
  };
  const pointer = (): PointerTarget | null => element(true) ?? point('x', 'y');
  switch (action) {
    case 'navigate': {
      const url = str('url');
      if (url === undefined) return 'navigate needs a `url`';
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return `navigate: ${JSON.stringify(url)} is not an absolute URL`;
      }
      // Other schemes (file:, chrome:, data:) would reach past the web into the machine the browser runs on.
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `navigate: only http and https URLs are allowed, not ${parsed.protocol}`;
      return { action, url: parsed.href };
    }
    case 'back':
    case 'forward':
    case 'reload':
    case 'screenshot':
      return { action };
    case 'click': {
      const target = pointer();
      if (target === null) return 'click needs a `ref`, a `selector`, a `text`, or a point `x`, `y`';
      const button = input.button ?? 'left';
      if (!BUTTONS.includes(button as MouseButton)) return 'click: `button` is left, right or middle';
      const modifiers = input.modifiers ?? [];
      if (!Array.isArray(modifiers) || !modifiers.every((m) => MODIFIERS.includes(m as KeyModifier))) return 'click: `modifiers` is a list of Alt, Control, Meta, Shift';
      return {
        action,
        ...target,
        ...(button === 'left' ? {} : { button: button as MouseButton }),
        ...(input.double === true ? { clickCount: 2 as const } : {}),
        ...(modifiers.length === 0 ? {} : { modifiers: [...new Set(modifiers as KeyModifier[])] }),
      };
    }
    case 'hover': {
      const target = pointer();
      return target === null ? 'hover needs a `ref`, a `selector`, a `text`, or a point `x`, `y`' : { action, ...target };
    }
    case 'type': {
      const target = element(false);
      if (target === null || typeof input.text !== 'string') return 'type needs a `ref` (or a `selector`) and a `text`';
      return { action, ...target, text: input.text, ...(input.submit === true ? { submit: true } : {}) };
    }
    case 'select': {
      const target = element(true);
      const values = input.values;
      if (target === null || !Array.isArray(values) || values.length === 0 || !values.every((v) => typeof v === 'string')) {
        return 'select needs a `ref` (or a `selector`) and `values`, a list of option labels or values';
      }
      return { action, ...target, values: values as string[] };
    }
    case 'press': {
      const key = str('key');
      return key === undefined ? 'press needs a `key`, such as Enter or Control+A' : { action, key };
    }
    case 'drag': {
      const from = pointer();
      const toRef = str('to_ref');
      const to: PointerTarget | null = toRef !== undefined ? { ref: toRef } : point('to_x', 'to_y');
      if (from === null || to === null) return 'drag needs what to drag (`ref`, `selector`, `text`, or `x`, `y`) and where (`to_ref`, or `to_x`, `to_y`)';
      return { action, ...from, to };
    }
    case 'scroll': {
      const text = str('text');
      if (text !== undefined) return { action, toText: text };
      const direction = input.direction ?? 'down';
      if (direction !== 'up' && direction !== 'down' && direction !== 'left' && direction !== 'right') return 'scroll: `direction` is up, down, left or right';
      const amount = input.amount;
      if (amount !== undefined && !(Number.isInteger(amount) && (amount as number) > 0)) return 'scroll: `amount` is a positive integer of pixels';
      const at = element(false) ?? point('x', 'y');
      return { action, direction, ...(amount !== undefined ? { amount: amount as number } : {}), ...(at === null ? {} : { at }) };
    }
    case 'wait': {
      const seconds = input.seconds;
      if (seconds !== undefined && !(typeof seconds === 'number' && seconds >= 0 && seconds <= 30)) return 'wait: `seconds` is a number from 0 to 30';
      const text = str('text');
      if (text === undefined) return seconds === undefined ? 'wait needs a `text` to wait for, or `seconds`' : { action, seconds: seconds as number };
      return { action, text, ...(input.gone === true ? { gone: true } : {}), ...(seconds === undefined ? {} : { seconds: seconds as number }) };
    }
    case 'upload': {
      const target = element(true);
      const files = input.files;
      if (target === null || !Array.isArray(files) || files.length === 0 || !files.every((f) => typeof f === 'string' && f !== '')) {
        return 'upload needs a `ref` (or a `selector`) and `files`, a list of input file names';
      }
      return { action, ...target, files: files as string[] };
    }
    case 'dialog': {
      if (typeof input.accept !== 'boolean') return 'dialog needs `accept`: true (OK) or false (Cancel)';
      return { action, accept: input.accept, ...(typeof input.text === 'string' ? { text: input.text } : {}) };
    }
    case 'tab': {
      const index = input.index;
      if (!(Number.isInteger(index) && (index as number) >= 0)) return 'tab needs an `index`, as results list the tabs';
      return { action, index: index as number, ...(input.close === true ? { close: true } : {}) };
    }
    case 'read_text': {
      const offset = input.offset;
      if (offset !== undefined && !(Number.isInteger(offset) && (offset as number) >= 0)) return 'read_text: `offset` is a character position, 0 or more';
      return { action, ...(offset === undefined || offset === 0 ? {} : { offset: offset as number }) };
    }
    case 'snapshot': {
      const ref = str('ref');
      return { action, ...(ref === undefined ? {} : { ref }) };
    }
    default:
      return `unknown browser action ${JSON.stringify(action)}; use one of ${BROWSER_ACTIONS.join(', ')}`;
  }
}

/** A short description for the run's progress and step names. */
export function describeBrowserAction(action: BrowserAction): string {
  switch (action.action) {
    case 'navigate':
      return `browser navigate ${action.url}`;
    case 'click':
      return `browser ${action.clickCount === 2 ? 'double-' : action.clickCount === 3 ? 'triple-' : ''}${action.button === 'right' ? 'right-' : ''}click ${describeTarget(action)}`;
    case 'hover':
      return `browser hover ${describeTarget(action)}`;
    case 'type':
      return `browser type into ${describeTarget(action)}`;
    case 'select':
      return `browser select in ${describeTarget(action)}`;
    case 'press':
      return `browser press ${action.key}`;
    case 'drag':
      return `browser drag ${describeTarget(action)} to ${describeTarget(action.to)}`;
    case 'scroll':
      return 'toText' in action ? `browser scroll to ${JSON.stringify(action.toText)}` : `browser scroll ${action.direction}`;
    case 'wait':
      return 'text' in action ? `browser wait for ${JSON.stringify(action.text)}${action.gone === true ? ' to go' : ''}` : `browser wait ${action.seconds} s`;
    case 'upload':
      return `browser upload ${action.files.join(', ')} into ${describeTarget(action)}`;
    case 'dialog':
      return `browser dialog ${action.accept ? 'accept' : 'dismiss'}`;
    case 'tab':
      return `browser tab ${action.index}${action.close === true ? ' close' : ''}`;
    case 'type_text':
      return 'browser type text';
    case 'mouse_down':
    case 'mouse_up':
      return `browser ${action.action}${action.at === undefined ? '' : ` at ${describeTarget(action.at)}`}`;
    case 'back':
    case 'forward':
    case 'reload':
    case 'read_text':
    case 'snapshot':
    case 'screenshot':
      return `browser ${action.action}`;
    default: {
      const unreachable: never = action;
      throw new Error(`unknown action ${JSON.stringify(unreachable)}`);
    }
  }
}

/** An action's element or point as steps name it. */
function describeTarget(target: PointerTarget): string {
  if ('ref' in target) return target.ref;
  if ('selector' in target) return target.selector;
  if ('text' in target) return JSON.stringify(target.text);
  return `${target.x},${target.y}`;
}
