import { idParam, timestamp } from '../http-schemas/common.js';

const pageFingerprint = {
  type: ['object', 'null'],
  required: ['url', 'title', 'key_text'],
  description: 'The page the step expects: its URL pattern (`*` for an id-like path segment, query parameters by name), its title when the page is the same for every input, and text that must be on it.',
  properties: {
    url: { type: 'string' },
    title: { type: ['string', 'null'] },
    key_text: { type: 'array', items: { type: 'string' } },
  },
} as const;

const locator = {
  type: 'object',
  required: ['kind'],
  description: 'role: a Playwright role selector (role and accessible name); text: the visible text; css: the CSS or Playwright selector the agent used.',
  properties: {
    kind: { type: 'string', enum: ['role', 'text', 'css'] },
    selector: { type: 'string' },
    text: { type: 'string' },
  },
} as const;

const step = {
  type: 'object',
  required: ['tool'],
  description:
    'A browser action (navigate, back, forward, reload, click, hover, type, select, press, drag, scroll, wait, upload, dialog, tab) with its locators and page fingerprint, or a code step. Strings hold {{input}} and {{secret:name}} placeholders, never values.',
  properties: {
    tool: { type: 'string', enum: ['browser', 'code'] },
    action: { type: 'string' },
    url: { type: 'string' },
    text: { type: 'string', description: "type: what is typed; scroll: the text scrolled to; wait: the text waited for; dialog: a prompt's answer." },
    submit: { type: 'boolean' },
    key: { type: 'string', description: 'press: a key or a chord such as Control+A.' },
    direction: { type: 'string', enum: ['up', 'down', 'left', 'right'] },
    amount: { type: 'integer' },
    locators: { type: 'array', items: locator, description: 'The element acted on (drag: the one dragged; scroll: the area scrolled).' },
    to_locators: { type: 'array', items: locator, description: 'drag: where it was dropped.' },
    values: { type: 'array', items: { type: 'string' }, description: 'select: the options, by label or value.' },
    button: { type: 'string', enum: ['right', 'middle'], description: 'click: a button other than the left one.' },
    double: { type: 'boolean', description: 'click: a double click.' },
    modifiers: { type: 'array', items: { type: 'string', enum: ['Alt', 'Control', 'Meta', 'Shift'] }, description: 'click: keys held.' },
    gone: { type: 'boolean', description: 'wait: until the text is gone.' },
    seconds: { type: 'number', description: 'wait: at most this long (or this long, without a text).' },
    accept: { type: 'boolean', description: 'dialog: accepted (true) or dismissed.' },
    index: { type: 'integer', description: 'tab: which tab, as results list them.' },
    close: { type: 'boolean', description: 'tab: closed rather than switched to.' },
    files: {
      type: 'array',
      description: "upload: the run's input files it sets, by their place in the run's `files` (0-based) and the content type the recorded run uploaded there; never a file's name or bytes.",
      items: { type: 'object', required: ['index', 'content_type'], properties: { index: { type: 'integer', minimum: 0 }, content_type: { type: 'string' } } },
    },
    page: pageFingerprint,
    language: { type: 'string', enum: ['bash', 'python', 'node'] },
    code: { type: 'string' },
  },
} as const;

const memberRule = {
  type: 'object',
  required: ['from', 'type'],
  description: 'page_text: the final page line between prefix and suffix (or the line after `before`); code_output: member `key` of the JSON printed by code step `step` (0-based).',
  properties: {
    from: { type: 'string', enum: ['page_text', 'code_output'] },
    type: { type: 'string', enum: ['string', 'number', 'boolean'] },
    prefix: { type: 'string' },
    suffix: { type: 'string' },
    before: { type: ['string', 'null'] },
    step: { type: 'integer' },
    key: { type: 'string' },
  },
} as const;

export const recipeSchema = {
  type: 'object',
  required: ['object', 'job_id', 'version', 'source_run_id', 'created_at', 'format', 'steps', 'extraction'],
  properties: {
    object: { type: 'string', const: 'recipe' },
    job_id: { type: 'string' },
    version: { type: 'integer', description: 'Counts up from 1 with every run that recorded the recipe anew.' },
    source_run_id: { type: 'string', description: 'The run it was recorded from.' },
    created_at: timestamp,
    format: { type: 'integer', const: 1 },
    steps: { type: 'array', items: step },
    extraction: { type: 'object', additionalProperties: memberRule, description: 'How each member of the result is read, by member name.' },
  },
} as const;

export const recipeDeletedSchema = {
  type: 'object',
  required: ['job_id', 'object', 'deleted', 'versions'],
  properties: {
    job_id: { type: 'string' },
    object: { type: 'string', const: 'recipe' },
    deleted: { type: 'boolean', const: true },
    versions: { type: 'integer', description: 'How many versions were removed.' },
  },
} as const;

export const recipeRouteSchemas = {
  get: { params: idParam('job'), response: { 200: recipeSchema } },
  delete: { params: idParam('job'), response: { 200: recipeDeletedSchema } },
} as const;
