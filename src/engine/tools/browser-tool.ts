import { performance } from 'node:perf_hooks';
import type { BrowserAction } from '../../sandbox/protocol.js';
import { withSecrets } from '../../connections/secret-references.js';
import { browserResultText } from '../../sandbox/browser-result-text.js';
import { withSandboxReach } from './sandbox-reach.js';
import { toolError, type AgentTool } from '../../agent-tools/agent-tool.js';
import { type ToolContent } from '../../agent-tools/tool-content.js';
import type { RunRow } from '../../store/runs-table.js';
import { failedOutcome } from '../../runs/run-outcome.js';

export const BROWSER_ACTIONS = ['navigate', 'click', 'type', 'press', 'scroll', 'upload', 'read_text', 'snapshot', 'screenshot'] as const;

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
        'Drive a headless Chromium with one tab. Actions: navigate {url}; click {selector} or {text}; type {selector, text, submit?} ' +
        '(to type a stored secret such as a password without seeing it, write {{secret:<name>}} in the text; to type the current ' +
        'code of an authenticator (TOTP) connection, write {{totp:<name>}}); ' +
        'press {key}; scroll {direction, amount?}; upload {selector, files} (sets input files of the run, by their names in /workspace/in, ' +
        'on the <input type=file> the selector finds); read_text (the page text); snapshot (the accessibility tree, good for finding selectors); ' +
        'screenshot (you see the image; it gets an id you can name as evidence). Every result says the URL, title and HTTP status, and a ' +
        '`problem` when the page is unusable (dns_failure, connection_refused, connection_failed, http_error, captcha, host_unreachable).',
      inputSchema: {
        type: 'object',
        required: ['action'],
        properties: {
          action: { type: 'string', enum: [...BROWSER_ACTIONS] },
          url: { type: 'string', description: 'navigate: an http or https URL.' },
          selector: { type: 'string', description: 'click, type, upload: a CSS or Playwright selector.' },
          text: { type: 'string', description: 'click: visible text to click; type: the text to enter, where {{secret:<name>}} stands for a stored secret and {{totp:<name>}} for the current code of a TOTP connection.' },
          submit: { type: 'boolean', description: 'type: press Enter afterwards.' },
          key: { type: 'string', description: 'press: a key name such as Enter, Tab, ArrowDown.' },
          direction: { type: 'string', enum: ['up', 'down'], description: 'scroll: which way.' },
          amount: { type: 'integer', minimum: 1, description: 'scroll: pixels (default one screen).' },
          files: { type: 'array', items: { type: 'string' }, description: 'upload: names of the run\'s input files (in /workspace/in), e.g. ["report.pdf"].' },
        },
      },
    },
    summary: 'browser: a headless Chromium with one tab (navigate, click, type, press, scroll, upload, read_text, snapshot, screenshot). A screenshot comes back as an image with an id.',
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

/** Turns the model's `browser` input into a protocol action, or says what is wrong with it. */
export function parseBrowserInput(input: Record<string, unknown>): BrowserAction | string {
  const action = input.action;
  const str = (name: string): string | undefined => (typeof input[name] === 'string' && input[name] !== '' ? (input[name] as string) : undefined);
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
    case 'click': {
      const selector = str('selector');
      const text = str('text');
      if (selector === undefined && text === undefined) return 'click needs a `selector` or a `text`';
      return { action, ...(selector !== undefined ? { selector } : { text: text! }) };
    }
    case 'type': {
      const selector = str('selector');
      if (selector === undefined || typeof input.text !== 'string') return 'type needs a `selector` and a `text`';
      return { action, selector, text: input.text, ...(input.submit === true ? { submit: true } : {}) };
    }
    case 'press': {
      const key = str('key');
      return key === undefined ? 'press needs a `key`' : { action, key };
    }
    case 'scroll': {
      const direction = input.direction ?? 'down';
      if (direction !== 'up' && direction !== 'down') return 'scroll: `direction` is up or down';
      const amount = input.amount;
      if (amount !== undefined && !(Number.isInteger(amount) && (amount as number) > 0)) return 'scroll: `amount` is a positive integer of pixels';
      return { action, direction, ...(amount !== undefined ? { amount: amount as number } : {}) };
    }
    case 'upload': {
      const selector = str('selector');
      const files = input.files;
      if (selector === undefined || !Array.isArray(files) || files.length === 0 || !files.every((f) => typeof f === 'string' && f !== '')) {
        return 'upload needs a `selector` and `files`, a list of input file names';
      }
      return { action, selector, files: files as string[] };
    }
    case 'read_text':
    case 'snapshot':
    case 'screenshot':
      return { action };
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
      return `browser click ${action.selector ?? JSON.stringify(action.text)}`;
    case 'type':
      return `browser type into ${action.selector}`;
    case 'press':
      return `browser press ${action.key}`;
    case 'scroll':
      return `browser scroll ${action.direction}`;
    case 'upload':
      return `browser upload ${action.files.join(', ')} into ${action.selector}`;
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
