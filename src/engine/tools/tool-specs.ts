import type { ToolSpec } from '../providers/provider.js';

export const BROWSER_ACTIONS = ['navigate', 'click', 'type', 'press', 'scroll', 'read_text', 'snapshot', 'screenshot'] as const;
export const CODE_LANGUAGES = ['bash', 'python', 'node'] as const;
export const FAILURE_REASONS = ['captcha', 'auth_required', 'site_down', 'timeout', 'ambiguous', 'not_found'] as const;
export const CONFIDENCES = ['high', 'medium', 'low'] as const;

export const browserTool: ToolSpec = {
  name: 'browser',
  description:
    'Drive a headless Chromium with one tab. Actions: navigate {url}; click {selector} or {text}; type {selector, text, submit?}; ' +
    'press {key}; scroll {direction, amount?}; read_text (the page text); snapshot (the accessibility tree, good for finding selectors); ' +
    'screenshot (you see the image; it gets an id you can name as evidence). Every result says the URL, title and HTTP status, and a ' +
    '`problem` when the page is unusable (dns_failure, connection_refused, connection_failed, http_error, captcha).',
  inputSchema: {
    type: 'object',
    required: ['action'],
    properties: {
      action: { type: 'string', enum: [...BROWSER_ACTIONS] },
      url: { type: 'string', description: 'navigate: an http or https URL.' },
      selector: { type: 'string', description: 'click, type: a CSS or Playwright selector.' },
      text: { type: 'string', description: 'click: visible text to click; type: the text to enter.' },
      submit: { type: 'boolean', description: 'type: press Enter afterwards.' },
      key: { type: 'string', description: 'press: a key name such as Enter, Tab, ArrowDown.' },
      direction: { type: 'string', enum: ['up', 'down'], description: 'scroll: which way.' },
      amount: { type: 'integer', minimum: 1, description: 'scroll: pixels (default one screen).' },
    },
  },
};

export function codeTool(timeoutS: number): ToolSpec {
  return {
    name: 'run_code',
    description:
      `Run a bash, python or node program in the run's workspace directory (files persist between calls). A call is killed after ${timeoutS} s. ` +
      'You get the exit code, stdout and stderr; long output is cut in the middle.',
    inputSchema: {
      type: 'object',
      required: ['language', 'code'],
      properties: {
        language: { type: 'string', enum: [...CODE_LANGUAGES] },
        code: { type: 'string', description: 'The program text.' },
      },
    },
  };
}

export const finishTool: ToolSpec = {
  name: 'finish',
  description:
    'End the task with your answer. On success give `result` (a JSON object satisfying the output schema), `confidence`, `matched_text` ' +
    'and `evidence_screenshot`. When the task cannot be done, give `result: null`, a `failure_reason` and a one-sentence `failure_detail`.',
  inputSchema: {
    type: 'object',
    properties: {
      result: { type: ['object', 'null'], description: 'The answer, as a JSON object that satisfies the output schema; null on failure.' },
      confidence: { type: 'string', enum: [...CONFIDENCES], description: 'How sure you are of the result.' },
      failure_reason: { type: ['string', 'null'], enum: [...FAILURE_REASONS, null], description: 'Why the task could not be done; null on success.' },
      failure_detail: { type: 'string', description: 'On failure: one sentence saying what happened.' },
      matched_text: { type: ['string', 'null'], description: 'The exact text on the page that supports the result.' },
      evidence_screenshot: { type: ['string', 'null'], description: 'The id of the screenshot that shows the answer, or "latest".' },
    },
  },
};
